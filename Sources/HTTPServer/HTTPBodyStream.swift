import Locking

/// A response body written over time from any thread, sent with chunked transfer coding (to an
/// HTTP/1.0 client: unframed, ending when the connection closes).
///
/// Writes are queued to the connection's event loop. When the client reads too slowly and more than
/// the configured backlog is waiting, or when it disconnects, the stream is closed: `write` then
/// returns false and `onClose` handlers run once, so producers stop instead of growing memory.
public final class HTTPBodyStream: Sendable {
    struct State {
        var binding: (loop: EventLoop, connectionID: UInt64)?
        /// Chunks written before the response head went out.
        var early: [[UInt8]] = []
        var finishedEarly = false
        var closed = false
        var onClose: [@Sendable () -> Void] = []
        var backlog = 0
    }

    let state = Lock(State())

    public init() {}

    /// Whether the stream is still open (the client is connected and keeping up).
    public var isOpen: Bool { state.withLock { !$0.closed } }

    /// Queues bytes for the client. Returns false when the stream is closed.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return isOpen }
        let target: (EventLoop, UInt64)? = state.withLock { s in
            if s.closed { return nil }
            guard let binding = s.binding else {
                s.early.append(bytes)
                return nil
            }
            s.backlog += bytes.count
            return (binding.loop, binding.connectionID)
        }
        guard let (loop, id) = target else { return isOpen }
        loop.execute { loop.streamWrite(connectionID: id, stream: self, bytes: bytes) }
        return true
    }

    /// Ends the body; the connection then serves its next request.
    public func finish() {
        let target: (EventLoop, UInt64)? = state.withLock { s in
            if s.closed { return nil }
            guard let binding = s.binding else {
                s.finishedEarly = true
                return nil
            }
            return (binding.loop, binding.connectionID)
        }
        guard let (loop, id) = target else { return }
        loop.execute { loop.streamFinish(connectionID: id, stream: self) }
    }

    /// Registers a handler that runs once when the stream closes for any reason.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s in
            if s.closed { return true }
            s.onClose.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: Called by the event loop

    func bind(loop: EventLoop, connectionID: UInt64) -> (early: [[UInt8]], finished: Bool) {
        state.withLock { s in
            s.binding = (loop, connectionID)
            let early = s.early
            s.early = []
            return (early, s.finishedEarly)
        }
    }

    func written(_ count: Int) { state.withLock { $0.backlog -= count } }

    var backlog: Int { state.withLock { $0.backlog } }

    func close() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            if s.closed { return [] }
            s.closed = true
            let handlers = s.onClose
            s.onClose = []
            return handlers
        }
        for handler in handlers { handler() }
    }
}
