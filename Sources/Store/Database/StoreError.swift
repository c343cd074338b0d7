/// Failures of the Store layer that are not raw SQLite errors (those are `SQLiteError`)
/// or migration problems (those are `MigrationError`).
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of row an error refers to.
    public enum Entity: String, Sendable, Hashable {
        case board, sticker, ink, event, idempotencyKey = "idempotency key"
    }

    /// The database was closed (or is closing); no new transactions start.
    case closed
    /// A database file, its directory or a journal file is writable by every user.
    case unsafePermissions(path: String, mode: UInt32)
    /// The parent directory could not be created or is not a directory.
    case directoryUnavailable(path: String, reason: String)
    /// `write` was called from inside a `write` body (it would deadlock on the writer queue).
    case nestedWrite
    /// No reader connection became free within the configured timeout.
    case readerUnavailable(waitedMilliseconds: Int)
    /// A transaction object was used after its `read`/`write` body returned.
    case transactionFinished
    /// A row with this identity already exists.
    case alreadyExists(Entity, id: String)
    /// The row the operation targets does not exist.
    case notFound(Entity, id: String)
    /// Optimistic concurrency: the stored version is not the one the caller expected.
    case versionConflict(stickerId: String, expected: Int64, actual: Int64)
    /// A label cannot go back to being a field (enforced by a trigger in the schema).
    case labelIsFinal(stickerId: String)
    /// A page size outside `1...DatabaseConfiguration.maxPageSize`.
    case invalidLimit(Int, maximum: Int)
    /// A stored value that the record type cannot represent (an unknown enum raw value).
    case corruptValue(table: String, column: String, value: String)
    /// The database server cannot be reached or did not answer in time; retrying later may work.
    case unavailable(reason: String)
    /// The operation exists for another engine only.
    case unsupported(String)

    /// A one-line explanation for logs.
    public var description: String {
        switch self {
        case .closed:
            "the database is closed"
        case let .unsafePermissions(path, mode):
            "refusing to use \(path): it is writable by every user (mode \(String(mode & 0o7777, radix: 8)))"
        case let .directoryUnavailable(path, reason):
            "database directory \(path) is unavailable: \(reason)"
        case .nestedWrite:
            "write(_:) called from inside a write transaction; pass the WriteTransaction instead"
        case let .readerUnavailable(waited):
            "no reader connection became available within \(waited) ms"
        case .transactionFinished:
            "the transaction was used after its body returned"
        case let .alreadyExists(entity, id):
            "\(entity.rawValue) \(id) already exists"
        case let .notFound(entity, id):
            "\(entity.rawValue) \(id) does not exist"
        case let .versionConflict(id, expected, actual):
            "sticker \(id) is at version \(actual), not the expected \(expected)"
        case let .labelIsFinal(id):
            "sticker \(id) is a label and cannot become a field again"
        case let .invalidLimit(limit, maximum):
            "limit \(limit) is outside 1...\(maximum)"
        case let .corruptValue(table, column, value):
            "unexpected value \(value) in \(table).\(column)"
        case let .unavailable(reason):
            "the database is unavailable: \(reason)"
        case let .unsupported(what):
            "\(what) are not available on this database engine"
        }
    }
}
