/// Answers one request. Call `send` exactly once, from any thread; later calls are ignored.
///
/// When called on the connection's own event-loop thread (a cheap handler answering at once) the
/// response is written without a thread hop; from any other thread it is queued to the loop.
/// A writer made from a closure hands the response to it instead: a handler runs in-process,
/// without sockets (route tests, embedding).
public struct HTTPResponseWriter: Sendable {
    private enum Target: Sendable {
        case connection(loop: EventLoop, connectionID: UInt64, sequence: UInt64)
        case closure(@Sendable (HTTPResponse) -> Void)
    }

    private let target: Target

    init(loop: EventLoop, connectionID: UInt64, sequence: UInt64) {
        target = .connection(loop: loop, connectionID: connectionID, sequence: sequence)
    }

    /// A writer that passes the response to `deliver`.
    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        target = .closure(deliver)
    }

    public func send(_ response: HTTPResponse) {
        switch target {
        case .closure(let deliver):
            deliver(response)
        case .connection(let loop, let id, let seq):
            if loop.isCurrentThread {
                loop.complete(connectionID: id, sequence: seq, response: response)
            } else {
                loop.execute { loop.complete(connectionID: id, sequence: seq, response: response) }
            }
        }
    }
}
