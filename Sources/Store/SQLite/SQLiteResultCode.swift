import CSQLite

/// A SQLite result code, primary or extended (`SQLITE_CONSTRAINT_TRIGGER` is the primary
/// `SQLITE_CONSTRAINT` with extra bits above the low byte).
///
/// A struct rather than an enum because SQLite adds codes over time: an unknown code must
/// still be representable without losing its value.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The integer SQLite returned.
    public let rawValue: Int32

    /// Wraps an integer result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low byte of an extended code.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// The symbolic name (`SQLITE_CONSTRAINT_UNIQUE`), or `SQLITE_<number>` when unknown.
    public var name: String {
        if let name = Self.names[rawValue] { return name }
        if let primaryName = Self.names[rawValue & 0xFF] { return "\(primaryName)_\(rawValue >> 8)" }
        return "SQLITE_\(rawValue)"
    }

    /// SQLite's English explanation of the code (`sqlite3_errstr`).
    public var explanation: String { String(cString: sqlite3_errstr(rawValue)) }

    /// `SQLITE_CONSTRAINT_TRIGGER (1811)`.
    public var description: String { "\(name) (\(rawValue))" }

    /// Success.
    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    /// Generic error (SQL error, missing database).
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// The database file is locked by another connection.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// A table is locked within the same connection.
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// Attempt to write on a read-only connection.
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// The database file could not be opened.
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// A constraint was violated (see the extended code).
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// The library was used incorrectly (closed connection, multiple statements).
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    /// Parameter index or name out of range.
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    /// String or blob too large.
    public static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
    /// `sqlite3_step` has a row ready.
    public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    /// `sqlite3_step` has finished.
    public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)
    /// A CHECK constraint failed.
    public static let constraintCheck = SQLiteResultCode(rawValue: 275)
    /// A foreign key constraint failed.
    public static let constraintForeignKey = SQLiteResultCode(rawValue: 787)
    /// A NOT NULL constraint failed.
    public static let constraintNotNull = SQLiteResultCode(rawValue: 1299)
    /// A PRIMARY KEY constraint failed.
    public static let constraintPrimaryKey = SQLiteResultCode(rawValue: 1555)
    /// A trigger raised an error (`RAISE(ABORT, …)`).
    public static let constraintTrigger = SQLiteResultCode(rawValue: 1811)
    /// A UNIQUE constraint failed.
    public static let constraintUnique = SQLiteResultCode(rawValue: 2067)

    private static let names: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
        5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
        10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL",
        14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA",
        18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
        22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        27: "SQLITE_NOTICE", 28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
        261: "SQLITE_BUSY_RECOVERY", 517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT",
        264: "SQLITE_READONLY_RECOVERY", 520: "SQLITE_READONLY_CANTLOCK", 776: "SQLITE_READONLY_ROLLBACK",
        1032: "SQLITE_READONLY_DBMOVED", 1288: "SQLITE_READONLY_CANTINIT", 1544: "SQLITE_READONLY_DIRECTORY",
        270: "SQLITE_CANTOPEN_NOTEMPDIR", 526: "SQLITE_CANTOPEN_ISDIR", 782: "SQLITE_CANTOPEN_FULLPATH",
        1038: "SQLITE_CANTOPEN_CONVPATH", 1550: "SQLITE_CANTOPEN_SYMLINK",
        275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK", 787: "SQLITE_CONSTRAINT_FOREIGNKEY",
        1043: "SQLITE_CONSTRAINT_FUNCTION", 1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE", 2323: "SQLITE_CONSTRAINT_VTAB",
        2579: "SQLITE_CONSTRAINT_ROWID", 3091: "SQLITE_CONSTRAINT_DATATYPE",
        267: "SQLITE_CORRUPT_VTAB", 523: "SQLITE_CORRUPT_SEQUENCE", 779: "SQLITE_CORRUPT_INDEX",
        516: "SQLITE_ABORT_ROLLBACK", 262: "SQLITE_LOCKED_SHAREDCACHE", 518: "SQLITE_LOCKED_VTAB",
    ]
}
