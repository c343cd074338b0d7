import Dispatch
import Foundation
import Locking

/// PostgreSQL behind `Database`: a pool of connections shared by reads and writes, each write
/// a READ COMMITTED transaction serialized per board by an advisory lock (see `lockBoard`).
///
/// Why advisory locks and not SERIALIZABLE: what must be atomic is always about one board
/// (the field under the pen, `If-Match`, key input, end of editing, the order of event ids),
/// so one lock per board gives SQLite's guarantees board by board, lets different boards write
/// in parallel, and never aborts a transaction that would have to be run again. Optimistic
/// version checks still guard each sticker; deadlocks (none expected, since the board lock is
/// always a transaction's first lock) are retried like serialization failures.
final class PostgresBackend: DatabaseBackend {
    let configuration: DatabaseConfiguration
    let migrationsAppliedAtOpen: [Int]
    private let pool: PostgresPool
    private let listener = Lock<PostgresListener?>(nil)
    /// Marks, in the thread's dictionary, a write of this database running on that thread.
    private let writingKey: String

    init(connection: String, migrations: [Migration], configuration: DatabaseConfiguration) throws {
        self.configuration = configuration
        self.writingKey = "inksticker.store.writing.\(UUID().uuidString)"
        let settings: [(String, String)] = [
            ("dbname", connection),
            ("connect_timeout", String(max(1, configuration.connectTimeoutSeconds))),
            ("application_name", "inksticker"),
        ]
        // Set after connecting rather than as `options`, which would replace any the URL has.
        // bytea comes back as hex whatever the server, database or role sets (`blob(at:)` reads hex).
        let statementTimeout = "SET statement_timeout = \(max(0, configuration.statementTimeoutMilliseconds))"
        let setup = statementTimeout + "; SET idle_in_transaction_session_timeout = 60000; SET bytea_output = hex"
        self.pool = PostgresPool(settings: settings, setup: setup, size: max(1, configuration.poolSize),
                                 waitMilliseconds: configuration.readerWaitMilliseconds)
        self.migrationsAppliedAtOpen = try pool.withConnection { connection in
            // Waiting for another node's migration lock, and a migration's own work (an index
            // built over a large table), take as long as they take.
            try connection.executeScript("SET statement_timeout = 0")
            let applied = try MigrationRunner.migrate(connection, migrations: migrations, now: Timestamp.now())
            try connection.executeScript(statementTimeout)
            return applied
        }
    }

    func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        // A nested write would wait for a lock its own outer transaction holds.
        guard Thread.current.threadDictionary[writingKey] == nil else { throw StoreError.nestedWrite }
        Thread.current.threadDictionary[writingKey] = true
        defer { Thread.current.threadDictionary[writingKey] = nil }
        var attempt = 1
        while true {
            do {
                return try pool.withConnection { connection in
                    let transaction = WriteTransaction(connection: connection, configuration: configuration)
                    return try transaction.run(begin: "BEGIN", body)
                }
            } catch let error as PostgresError where error.isRetryable && attempt < configuration.writeAttempts {
                attempt += 1
            }
        }
    }

    /// REPEATABLE READ, READ ONLY: one snapshot for the whole body, like SQLite's read transactions.
    func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try pool.withConnection { connection in
            let transaction = ReadTransaction(connection: connection, configuration: configuration)
            return try transaction.run(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
        }
    }

    func observeEvents(_ handler: @escaping @Sendable (EventSignal) -> Void) {
        handler(.listening(false))   // until the listener has connected
        let started = PostgresListener(settings: pool.settings, channel: PostgresConnection.eventChannel, handler: handler)
        listener.withLock { $0 = started }
        started.start()
    }

    func close() -> [any Error] {
        listener.withLock { $0?.stop() }
        pool.close()
        return []
    }
}

/// Up to `size` connections, opened when first needed and replaced when the server dropped
/// them. A caller waits for a free connection up to `waitMilliseconds`.
final class PostgresPool: Sendable {
    let settings: [(String, String)]
    /// Session settings run on each new connection.
    private let setup: String
    private let size: Int
    private let waitMilliseconds: Int
    private let available: DispatchSemaphore
    private let state: Lock<State>

    private struct State {
        var idle: [PostgresBox] = []
        var isClosed = false
    }

    init(settings: [(String, String)], setup: String, size: Int, waitMilliseconds: Int) {
        self.settings = settings
        self.setup = setup
        self.size = size
        self.waitMilliseconds = waitMilliseconds
        self.available = DispatchSemaphore(value: size)
        self.state = Lock(State())
    }

    /// Runs `body` with a connection checked out for its duration.
    ///
    /// - Throws: `StoreError.readerUnavailable` when none frees up in time, `StoreError.closed`,
    ///   `StoreError.unavailable` when the server cannot be reached or went away mid-way,
    ///   or what `body` throws.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard available.wait(timeout: .now() + .milliseconds(waitMilliseconds)) == .success else {
            throw StoreError.readerUnavailable(waitedMilliseconds: waitMilliseconds)
        }
        defer { available.signal() }
        let (closed, reused) = state.withLock { state in (state.isClosed, state.isClosed ? nil : state.idle.popLast()) }
        if closed { throw StoreError.closed }
        let box: PostgresBox
        if let reused, reused.connection.isAlive {
            box = reused
        } else {
            do {
                let connection = try PostgresConnection(settings: settings)
                try connection.executeScript(setup)
                box = PostgresBox(connection)
            } catch let error as PostgresError {
                throw StoreError.unavailable(reason: error.message)
            }
        }
        do {
            let result = try body(box.connection)
            state.withLock { $0.idle.append(box) }
            return result
        } catch let error as PostgresError where error.isUnavailable || error.isTimeout {
            // The connection is dropped: after a lost server or a cancelled statement it may
            // be mid-transaction or broken.
            throw StoreError.unavailable(reason: error.message)
        } catch {
            if box.connection.isHealthy, !box.connection.isInTransaction { state.withLock { $0.idle.append(box) } }
            throw error
        }
    }

    /// Refuses new checkouts, waits for the running ones and closes every connection.
    func close() {
        state.withLock { $0.isClosed = true }
        // Take every permit: returns only once all checked-out connections came back.
        for _ in 0..<size { available.wait() }
        let boxes = state.withLock { state -> [PostgresBox] in
            defer { state.idle = [] }
            return state.idle
        }
        for box in boxes { box.connection.close() }
        // Give the permits back so late callers wake up and see `closed`.
        for _ in 0..<size { available.signal() }
    }
}

/// Owns one connection. `@unchecked Sendable`: the pool hands a box to one caller at a time,
/// guarded by its lock.
final class PostgresBox: @unchecked Sendable {
    let connection: PostgresConnection
    init(_ connection: PostgresConnection) { self.connection = connection }
}

/// A thread with its own connection that `LISTEN`s on a channel and calls the handler with each
/// payload (`.board`), reconnecting (with back-off) when the server goes away: `.listening(false)`
/// when the connection is lost, `.listening(true)` once it listens again (notifications sent
/// while it was away are lost, so listeners must read everything again); and `.sweep` every
/// `sweepSeconds` anyway. The events table stays the truth; a notification is only a wake-up.
final class PostgresListener: Sendable {
    private let settings: [(String, String)]
    private let channel: String
    private let handler: @Sendable (EventSignal) -> Void
    private let stopped = Lock(false)
    /// How often every listener is woken without a notification.
    static let sweepSeconds = 10

    init(settings: [(String, String)], channel: String, handler: @escaping @Sendable (EventSignal) -> Void) {
        self.settings = settings
        self.channel = channel
        self.handler = handler
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "pg-listen"
        thread.start()
    }

    func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run() {
        var delay = 0.1
        var listening = false
        var lastSweep = ContinuousClock.now
        while !isStopped {
            do {
                let connection = try PostgresConnection(settings: settings)
                try connection.executeScript("LISTEN \(channel)")
                listening = true
                handler(.listening(true))
                delay = 0.1
                while !isStopped {
                    for notification in try connection.notifications(waitingMilliseconds: 500) {
                        handler(.board(notification.payload))
                    }
                    // A sweep now and then: a notification lost anywhere costs at most this delay.
                    if ContinuousClock.now - lastSweep > .seconds(Self.sweepSeconds) {
                        lastSweep = ContinuousClock.now
                        handler(.sweep)
                    }
                }
                connection.close()
            } catch {
                if listening {
                    listening = false
                    handler(.listening(false))
                }
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, 2)
            }
        }
    }
}
