import Locking

/// Wakes live event streams when a board's events change. The events themselves are read from
/// the database (the `events` table is the source of truth); this only says "look again".
final class EventHub: Sendable {
    private struct State {
        var nextToken = 0
        var subscribers: [String: [Int: @Sendable () -> Void]] = [:]
    }

    private let state = Lock(State())

    /// Registers `wake` for a board; returns a token for `unsubscribe`.
    func subscribe(boardId: String, _ wake: @escaping @Sendable () -> Void) -> Int {
        state.withLock { s in
            s.nextToken += 1
            s.subscribers[boardId, default: [:]][s.nextToken] = wake
            return s.nextToken
        }
    }

    func unsubscribe(boardId: String, token: Int) {
        state.withLock { s in
            s.subscribers[boardId]?[token] = nil
            if s.subscribers[boardId]?.isEmpty == true { s.subscribers[boardId] = nil }
        }
    }

    /// Called after a transaction that appended events for the board has committed.
    func notify(boardId: String) {
        let wakes = state.withLock { Array(($0.subscribers[boardId] ?? [:]).values) }
        for wake in wakes { wake() }
    }

    /// Wakes every stream: events may have been committed without a wake-up reaching this node.
    func notifyAll() {
        let wakes = state.withLock { $0.subscribers.values.flatMap(\.values) }
        for wake in wakes { wake() }
    }

    /// The board is gone: wake its streams so they notice and end.
    func boardDeleted(_ boardId: String) { notify(boardId: boardId) }

    var subscriberCount: Int { state.withLock { $0.subscribers.values.reduce(0) { $0 + $1.count } } }
}
