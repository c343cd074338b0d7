/// Answers one request. Call `send` exactly once, from any thread; later calls are ignored.
///
/// When called on the connection's own event-loop thread (a cheap handler answering at once) the
/// response is written without a thread hop; from any other thread it is queued to the loop.
public struct HTTPResponseWriter: Sendable {
    let loop: EventLoop
    let connectionID: UInt64
    let sequence: UInt64

    public func send(_ response: HTTPResponse) {
        if loop.isCurrentThread {
            loop.complete(connectionID: connectionID, sequence: sequence, response: response)
        } else {
            let loop = self.loop, id = connectionID, seq = sequence
            loop.execute { loop.complete(connectionID: id, sequence: seq, response: response) }
        }
    }
}
