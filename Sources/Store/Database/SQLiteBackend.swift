import Dispatch
import Locking

/// SQLite behind `Database`: one writer connection confined to a serial queue and a small pool
/// of read-only connections used in parallel (WAL mode lets readers proceed while the writer
/// writes).
final class SQLiteBackend: DatabaseBackend {
    let path: String
    let configuration: DatabaseConfiguration
    let migrationsAppliedAtOpen: [Int]

    private let writerQueue: DispatchQueue
    /// Marks code running on `writerQueue`, to refuse a nested `write` instead of deadlocking.
    private let writerQueueKey: WriterQueueKey
    private let writer: ConnectionBox
    private let readers: ReaderPool

    /// Creates the parent directory (mode 0700) when missing, refuses world-writable files and
    /// directories, turns on WAL mode, the configured `synchronous` level, `busy_timeout` and
    /// `foreign_keys`, then migrates and opens `configuration.readerCount` read-only connections.
    init(path: String, migrations: [Migration], configuration: DatabaseConfiguration) throws {
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

    // Pragma values come from the closed `Synchronous` enum and integers in the configuration,
    // never from requests; PRAGMA statements cannot take bound parameters.
    // `trusted_schema` stays ON for the writer only: the triggers that keep the R*Tree of sticker
    // frames in step use a virtual table, which SQLite before 3.41 refuses in triggers otherwise.
    // The file is the service's own (created by it, refused when world-writable); the readers,
    // which run no triggers, keep it OFF.
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
            PRAGMA trusted_schema = ON;
            PRAGMA wal_autocheckpoint = \(max(0, configuration.walAutoCheckpointPages));
            PRAGMA journal_size_limit = \(max(-1, configuration.journalSizeLimitBytes));
            """)
    }

    /// `BEGIN IMMEDIATE` on the writer, serialized with every other write.
    func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        guard DispatchQueue.getSpecific(key: writerQueueKey.key) == nil else { throw StoreError.nestedWrite }
        return try writerQueue.sync {
            guard let connection = writer.connection else { throw StoreError.closed }
            let transaction = WriteTransaction(connection: connection, configuration: configuration)
            return try transaction.run(begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// `BEGIN` on a pooled read-only connection: one snapshot for the whole body.
    func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try readers.withConnection(waitMilliseconds: configuration.readerWaitMilliseconds) { connection in
            let transaction = ReadTransaction(connection: connection, configuration: configuration)
            return try transaction.run(begin: "BEGIN", body)
        }
    }

    /// Waits for running reads, checkpoints the WAL into the main file and closes every connection.
    func close() -> [any Error] {
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
        return errors
    }
}

/// Holds the dispatch key that tags the writer queue. `@unchecked Sendable` because the key is
/// an immutable identity token: it is created once and only ever passed to libdispatch, which
/// is thread-safe.
private final class WriterQueueKey: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()
}
