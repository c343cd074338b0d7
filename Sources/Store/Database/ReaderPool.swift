import Dispatch
import Locking

/// Owns one connection. `@unchecked Sendable` because the connection inside is only ever
/// touched by one thread at a time: a reader box is handed to exactly one caller between
/// checkout and return (guarded by `ReaderPool`'s lock), and the writer box is touched only
/// inside `Database.writerQueue.sync`.
final class ConnectionBox: @unchecked Sendable {
    var connection: SQLiteConnection?

    init(_ connection: SQLiteConnection) { self.connection = connection }
}

/// A fixed set of read-only connections used in parallel.
///
/// A semaphore counts free connections so callers block (up to a timeout) rather than spin;
/// the lock guards the idle list and the closed flag.
final class ReaderPool: Sendable {
    private struct State {
        var idle: [ConnectionBox]
        var isClosed = false
    }

    private let state: Lock<State>
    private let available: DispatchSemaphore
    private let size: Int

    init(connections: [SQLiteConnection]) {
        self.size = connections.count
        self.state = Lock(State(idle: connections.map(ConnectionBox.init)))
        self.available = DispatchSemaphore(value: connections.count)
    }

    /// Runs `body` with a reader connection checked out for its duration.
    ///
    /// - Throws: `StoreError.readerUnavailable` after `waitMilliseconds`, `StoreError.closed`
    ///   once the pool is closed, or whatever `body` throws.
    func withConnection<T>(waitMilliseconds: Int, _ body: (SQLiteConnection) throws -> T) throws -> T {
        guard available.wait(timeout: .now() + .milliseconds(waitMilliseconds)) == .success else {
            throw StoreError.readerUnavailable(waitedMilliseconds: waitMilliseconds)
        }
        defer { available.signal() }
        let box = state.withLock { state -> ConnectionBox? in
            state.isClosed ? nil : state.idle.popLast()
        }
        guard let box, let connection = box.connection else { throw StoreError.closed }
        defer { state.withLock { $0.idle.append(box) } }
        return try body(connection)
    }

    /// Stops new checkouts, waits for every reader to come back, and closes them all.
    ///
    /// - Returns: errors from closing, if any (every connection is attempted).
    func close() -> [any Error] {
        state.withLock { $0.isClosed = true }
        // Take every permit: returns only once all in-flight reads have finished.
        for _ in 0..<size { available.wait() }
        let boxes = state.withLock { state -> [ConnectionBox] in
            let boxes = state.idle
            state.idle = []
            return boxes
        }
        var errors: [any Error] = []
        for box in boxes {
            do { try box.connection?.close() } catch { errors.append(error) }
            box.connection = nil
        }
        // Give the permits back: libdispatch traps when a semaphore is destroyed below its
        // initial value, and late callers must wake up to see `closed`.
        for _ in 0..<size { available.signal() }
        return errors
    }
}
