import CSQLite

/// The storage class of a column value in the current row.
public enum SQLiteColumnType: Sendable, Hashable {
    case integer, real, text, blob, null
}

extension SQLiteStatement {
    /// Columns in the result.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of the 0-based column `index` (the `AS` alias when given).
    public func columnName(at index: Int) -> String {
        guard let name = sqlite3_column_name(handle, Int32(clamping: index)) else { return "" }
        return String(cString: name)
    }

    /// The storage class of column `index` in the current row.
    public func columnType(at index: Int) -> SQLiteColumnType {
        switch sqlite3_column_type(handle, Int32(clamping: index)) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// True when column `index` of the current row is NULL.
    public func isNull(at index: Int) -> Bool { columnType(at: index) == .null }

    /// Column `index` as an integer (NULL reads as 0, per SQLite's conversion rules).
    public func int64(at index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(clamping: index)) }

    /// Column `index` as an `Int`.
    public func int(at index: Int) -> Int { Int(truncatingIfNeeded: int64(at: index)) }

    /// Column `index` as a double (NULL reads as 0).
    public func double(at index: Int) -> Double { sqlite3_column_double(handle, Int32(clamping: index)) }

    /// Column `index` as UTF-8 text (NULL reads as the empty string).
    public func string(at index: Int) -> String {
        let column = Int32(clamping: index)
        // Ask for the text before its length: the text call may convert the value and change it.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (NULL and empty blobs read as `[]`).
    public func blob(at index: Int) -> [UInt8] {
        let column = Int32(clamping: index)
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Column `index` as an integer, or nil when NULL.
    public func optionalInt64(at index: Int) -> Int64? { isNull(at: index) ? nil : int64(at: index) }

    /// Column `index` as a double, or nil when NULL.
    public func optionalDouble(at index: Int) -> Double? { isNull(at: index) ? nil : double(at: index) }

    /// Column `index` as text, or nil when NULL.
    public func optionalString(at index: Int) -> String? { isNull(at: index) ? nil : string(at: index) }
}
