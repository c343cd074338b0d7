import Dispatch
import Locking

/// The application's SQLite database: one writer connection confined to a serial queue and a
/// small pool of read-only connections used in parallel (WAL mode lets readers proceed while
/// the writer writes).
///
/// All methods block the calling thread; call them from worker threads, never from an event loop.
public final class Database: Sendable {
    private enum Lifecycle { case open, closing, closed }

    /// The database file path.
    public let path: String
    /// The configuration the database was opened with.
    public let configuration: DatabaseConfiguration
    /// Versions of the migrations applied while opening (empty when the schema was current).
    public let migrationsAppliedAtOpen: [Int]

    private let writerQueue: DispatchQueue
    /// Marks code running on `writerQueue`, to refuse a nested `write` instead of deadlocking.
    private let writerQueueKey: WriterQueueKey
    private let writer: ConnectionBox
    private let readers: ReaderPool
    private let lifecycle = Lock(Lifecycle.open)

    /// Opens (creating if needed) the database at `path` and applies pending `migrations`.
    ///
    /// Creates the parent directory (mode 0700) when missing, refuses world-writable files and
    /// directories, turns on WAL mode, the configured `synchronous` level, `busy_timeout` and
    /// `foreign_keys`, then migrates and opens `configuration.readerCount` read-only connections.
    ///
    /// - Throws: `StoreError` (permissions, directory), `MigrationError` (checksum mismatch,
    ///   newer database, failed migration) or `SQLiteError`.
    public init(path: String, migrations: [Migration], configuration: DatabaseConfiguration = .init()) throws {
        self.path = path
        self.configuration = configuration
        let directory = FileSafety.parentDirectory(of: path)
        if configuration.createsParentDirectory { try FileSafety.ensureDirectory(directory) }
        let guardedPaths = [directory, path, path + "-wal", path + "-shm"]
        if configuration.refusesWorldWritable { try FileSafety.refuseWorldWritable(guardedPaths) }

        let writer = try SQLiteConnection(path: path, flags: [.readWrite, .create, .noMutex, .noFollow],
                                          statementCacheCapacity: configuration.statementCacheCapacity)
        try Self.configureWriter(writer, configuration)
        if configuration.refusesWorldWritable { try FileSafety.refuseWorldWritable(guardedPaths) }
        self.migrationsAppliedAtOpen = try MigrationRunner.migrate(writer, migrations: migrations,
                                                                   now: Timestamp.now())

        var readers: [SQLiteConnection] = []
        for _ in 0..<max(1, configuration.readerCount) {
            let reader = try SQLiteConnection(path: path, flags: [.readOnly, .noMutex, .noFollow],
                                              statementCacheCapacity: configuration.statementCacheCapacity)
            try reader.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
            try reader.execute("PRAGMA trusted_schema = OFF")
            readers.append(reader)
        }
        self.readers = ReaderPool(connections: readers)
        self.writer = ConnectionBox(writer)
        self.writerQueueKey = WriterQueueKey()
        self.writerQueue = DispatchQueue(label: "inksticker.store.writer")
        writerQueue.setSpecific(key: writerQueueKey.key, value: true)
    }

    /// Opens the database with the migrations found in `migrationsDirectory`.
    public convenience init(path: String, migrationsDirectory: String,
                            configuration: DatabaseConfiguration = .init()) throws {
        try self.init(path: path, migrations: Migration.load(from: migrationsDirectory),
                      configuration: configuration)
    }

    // Pragma values come from the closed `Synchronous` enum and integers in the configuration,
    // never from requests; PRAGMA statements cannot take bound parameters.
    private static func configureWriter(_ writer: SQLiteConnection, _ configuration: DatabaseConfiguration) throws {
        try writer.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
        let mode = try writer.withStatement("PRAGMA journal_mode = WAL") { try $0.first { $0.string(at: 0) } }
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(extendedCode: .error, message: "could not enable WAL mode (got \(mode ?? "nothing"))",
                              sql: "PRAGMA journal_mode = WAL")
        }
        try writer.execute("""
            PRAGMA synchronous = \(configuration.synchronous.rawValue);
            PRAGMA foreign_keys = ON;
            PRAGMA trusted_schema = OFF;
            PRAGMA wal_autocheckpoint = \(max(0, configuration.walAutoCheckpointPages));
            PRAGMA journal_size_limit = \(max(-1, configuration.journalSizeLimitBytes));
            """)
    }

    /// True from a successful open until `close()` starts.
    public var isReady: Bool { lifecycle.withLock { $0 == .open } }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` … `COMMIT`) on the writer
    /// connection, serialized with every other write. Any error thrown by `body` or by the
    /// commit rolls the transaction back and is rethrown.
    ///
    /// - Throws: `StoreError.closed`, `StoreError.nestedWrite` when called inside a write body.
    @discardableResult
    public func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        guard isReady else { throw StoreError.closed }
        guard DispatchQueue.getSpecific(key: writerQueueKey.key) == nil else { throw StoreError.nestedWrite }
        return try writerQueue.sync {
            guard let connection = writer.connection else { throw StoreError.closed }
            let transaction = WriteTransaction(connection: connection, configuration: configuration)
            return try Self.run(transaction, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Runs `body` in a read transaction (`BEGIN` … `COMMIT`) on a pooled read-only connection:
    /// every query in `body` sees the same snapshot, unaffected by concurrent writes.
    ///
    /// - Throws: `StoreError.closed`, `StoreError.readerUnavailable` when every reader stays
    ///   busy for `readerWaitMilliseconds`.
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        guard isReady else { throw StoreError.closed }
        return try readers.withConnection(waitMilliseconds: configuration.readerWaitMilliseconds) { connection in
            let transaction = ReadTransaction(connection: connection, configuration: configuration)
            return try Self.run(transaction, begin: "BEGIN", body)
        }
    }

    private static func run<Transaction: ReadTransaction, T>(
        _ transaction: Transaction, begin: String, _ body: (Transaction) throws -> T
    ) throws -> T {
        let connection = transaction.connection
        try connection.withStatement(begin) { try $0.execute() }
        defer { transaction.finish() }
        do {
            let result = try body(transaction)
            try connection.withStatement("COMMIT") { try $0.execute() }
            return result
        } catch {
            // A failed COMMIT may already have ended the transaction; only roll back if open.
            if !connection.isAutocommit {
                try? connection.withStatement("ROLLBACK") { try $0.execute() }
            }
            throw error
        }
    }

    /// Graceful shutdown: refuses new transactions, waits for running ones, checkpoints the
    /// WAL into the main file and closes every connection. Idempotent.
    ///
    /// - Throws: the first error met; every connection is closed regardless.
    public func close() throws {
        let shouldClose = lifecycle.withLock { state -> Bool in
            guard state == .open else { return false }
            state = .closing
            return true
        }
        guard shouldClose else { return }
        var errors = readers.close()
        writerQueue.sync {
            guard let connection = writer.connection else { return }
            do {
                try connection.execute("PRAGMA optimize; PRAGMA wal_checkpoint(TRUNCATE);")
            } catch {
                errors.append(error)
            }
            do { try connection.close() } catch { errors.append(error) }
            writer.connection = nil
        }
        lifecycle.withLock { $0 = .closed }
        if let first = errors.first { throw first }
    }

    /// The migrations recorded in the database, by version.
    public func appliedMigrations() throws -> [AppliedMigration] {
        try read { try $0.appliedMigrations() }
    }
}

/// Holds the dispatch key that tags the writer queue. `@unchecked Sendable` because the key is
/// an immutable identity token: it is created once and only ever passed to libdispatch, which
/// is thread-safe.
private final class WriterQueueKey: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()
}
