import CSQLite

/// Flags for `sqlite3_open_v2`.
public struct SQLiteOpenFlags: OptionSet, Sendable, Hashable {
    /// The `SQLITE_OPEN_*` bits.
    public let rawValue: Int32

    /// Wraps raw `SQLITE_OPEN_*` bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Open for reading only; writes fail with `SQLITE_READONLY`.
    public static let readOnly = SQLiteOpenFlags(rawValue: SQLITE_OPEN_READONLY)
    /// Open for reading and writing.
    public static let readWrite = SQLiteOpenFlags(rawValue: SQLITE_OPEN_READWRITE)
    /// Create the file if it does not exist (with `readWrite`).
    public static let create = SQLiteOpenFlags(rawValue: SQLITE_OPEN_CREATE)
    /// Multi-thread mode: no per-connection mutex. Safe because every connection is used by
    /// one thread at a time (the writer queue, or a reader checked out of the pool).
    public static let noMutex = SQLiteOpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
    /// Refuse to open a database path that is a symbolic link.
    public static let noFollow = SQLiteOpenFlags(rawValue: 0x0100_0000)
    /// Report extended result codes from every call.
    public static let extendedResultCodes = SQLiteOpenFlags(rawValue: 0x0200_0000)
}
