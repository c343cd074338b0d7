import Foundation
import HTTPServer
import Locking
import Store
import Synchronization

/// Live Server-Sent Events streams of board events (WHATWG HTML §9.2).
///
/// Events are read from the `events` table, so a stream shows exactly what was committed, in order,
/// and a client resuming with `Last-Event-ID` misses nothing and sees nothing twice. The event hub
/// only wakes a stream's pump; the pump reads on the blocking pool and writes to the connection's
/// stream, which drops a client that reads too slowly instead of buffering without bound.
final class EventStreams: Sendable {
    static let batch = 200

    private final class Subscription: Sendable {
        let boardID: String
        let stream: HTTPBodyStream
        let services: AppServices
        struct State {
            var lastEventID: Int64
            var pumping = false
            var dirty = false
            var token = 0
        }
        let state: Lock<State>

        init(boardID: String, stream: HTTPBodyStream, services: AppServices, after: Int64) {
            self.boardID = boardID
            self.stream = stream
            self.services = services
            self.state = Lock(State(lastEventID: after))
        }
    }

    private let subscriptions = Lock<[ObjectIdentifier: Subscription]>([:])
    private let heartbeatSeconds: Double
    private let stopped = Atomic<Bool>(false)

    /// How often a stream whose wake-up the blocking pool refused (its queue was full) is
    /// pumped again.
    static let retrySeconds = 0.25

    init(heartbeatSeconds: Double = 15) {
        self.heartbeatSeconds = heartbeatSeconds
        let interval = heartbeatSeconds
        let thread = Thread { [weak self] in
            // No strong reference is held while sleeping, so a stopped service can go away.
            var sinceBeat = 0.0
            while self?.stopped.load(ordering: .relaxed) == false {
                let tick = min(Self.retrySeconds, interval)
                Thread.sleep(forTimeInterval: tick)
                self?.retryRefused()
                sinceBeat += tick
                if sinceBeat >= interval {
                    sinceBeat = 0
                    self?.heartbeat()
                }
            }
        }
        thread.name = "sse-heartbeat"
        thread.start()
    }

    var count: Int { subscriptions.withLock { $0.count } }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        for subscription in subscriptions.withLock({ Array($0.values) }) { subscription.stream.finish() }
    }

    /// Opens a stream of the board's events after `after`, returning the response to send.
    func open(boardID: String, after: Int64, services: AppServices) -> HTTPResponse {
        let stream = HTTPBodyStream()
        let subscription = Subscription(boardID: boardID, stream: stream, services: services, after: after)
        let key = ObjectIdentifier(subscription)
        subscriptions.withLock { $0[key] = subscription }
        let token = services.events.subscribe(boardId: boardID) { [weak self] in
            self?.pump(subscription)
        }
        subscription.state.withLock { $0.token = token }
        stream.onClose { [weak self] in
            services.events.unsubscribe(boardId: boardID, token: token)
            _ = self?.subscriptions.withLock { $0.removeValue(forKey: key) }
        }
        // Tell the client how long to wait before reconnecting, then send what it missed.
        stream.write(Array("retry: 2000\n\n".utf8))
        pump(subscription)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Accel-Buffering", value: "no")
        return HTTPResponse(status: .ok, headers: headers, stream: stream)
    }

    /// Sends every committed event after the last one sent; one pump per stream at a time. When
    /// the blocking pool refuses the job (its queue is full: many streams woken at once), the
    /// stream stays marked and `retryRefused` pumps it again shortly.
    private func pump(_ subscription: Subscription) {
        let start = subscription.state.withLock { s -> Bool in
            if s.pumping { s.dirty = true; return false }
            s.pumping = true
            s.dirty = false
            return true
        }
        guard start else { return }
        let accepted = subscription.services.blocking.submit { [weak self] in self?.drain(subscription) }
        if !accepted { subscription.state.withLock { $0.pumping = false; $0.dirty = true } }
    }

    /// Pumps every stream left with events to send and no pump running: the ones whose job was refused.
    private func retryRefused() {
        for subscription in subscriptions.withLock({ Array($0.values) })
        where subscription.state.withLock({ $0.dirty && !$0.pumping }) {
            pump(subscription)
        }
    }

    private func drain(_ subscription: Subscription) {
        let services = subscription.services
        while subscription.stream.isOpen {
            let after = subscription.state.withLock { $0.lastEventID }
            let result = try? services.database.read { tx -> (board: BoardRecord?, events: [EventRecord]) in
                guard let board = try tx.board(id: subscription.boardID) else { return (nil, []) }
                let from = max(after, board.eventsPurgedThrough)
                return (board, try tx.events(boardId: subscription.boardID, afterId: from, limit: Self.batch))
            }
            guard let result else { break }
            guard let board = result.board else {
                subscription.stream.write(Array("event: board-deleted\ndata: {}\n\n".utf8))
                subscription.stream.finish()
                break
            }
            var out: [UInt8] = []
            // Retention deleted events this stream had not sent: say so, and carry on after them.
            let purged = board.eventsPurgedThrough > after ? board.eventsPurgedThrough : nil
            if let purged { Self.appendReset(purgedThrough: purged, to: &out) }
            for event in result.events { Self.append(event, to: &out) }
            // Another node's event may be read here before its notification reached this node:
            // a client that lists the board on hearing of it must not get an older listing from memory.
            if !result.events.isEmpty { services.listingCache.invalidate(board: subscription.boardID) }
            if !out.isEmpty, !subscription.stream.write(out) { break }
            if let last = result.events.last?.id ?? purged { subscription.state.withLock { $0.lastEventID = last } }
            if result.events.count < Self.batch {
                let again = subscription.state.withLock { s -> Bool in
                    if s.dirty { s.dirty = false; return true }
                    s.pumping = false
                    return false
                }
                if !again { return }
            }
        }
        subscription.state.withLock { $0.pumping = false }
    }

    /// `id`, `event` and `data` fields; the payload is one line of JSON.
    static func append(_ event: EventRecord, to out: inout [UInt8]) {
        out.append(contentsOf: "id: \(event.id)\nevent: \(event.type.rawValue)\ndata: ".utf8)
        out.append(contentsOf: event.payload.utf8.filter { $0 != 0x0A && $0 != 0x0D })
        out.append(contentsOf: "\n\n".utf8)
    }

    /// `reset`: the events up to `purgedThrough` are no longer kept, so the client, which had not
    /// seen them all, must list the board again. Its id is that of the last one deleted: a client
    /// that reconnects from it is not told again.
    static func appendReset(purgedThrough: Int64, to out: inout [UInt8]) {
        out.append(contentsOf: "id: \(purgedThrough)\nevent: reset\ndata: {\"purgedThrough\":\(purgedThrough)}\n\n".utf8)
    }

    private func heartbeat() {
        let beat = Array(": heartbeat\n\n".utf8)
        for subscription in subscriptions.withLock({ Array($0.values) }) { subscription.stream.write(beat) }
    }
}
