/// A Swift value that can be bound to a statement parameter.
///
/// Store's records bind through these conformances so every value reaches SQLite as a bound
/// parameter, never as text spliced into SQL.
public protocol SQLiteBindable {
    /// Binds the value to the 1-based parameter `index` of `statement`.
    func bind(to statement: SQLiteStatement, at index: Int) throws
}

extension Int64: SQLiteBindable {
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(self, at: index) }
}

extension Int: SQLiteBindable {
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(Int64(self), at: index) }
}

extension Double: SQLiteBindable {
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(self, at: index) }
}

extension Bool: SQLiteBindable {
    /// Binds 1 or 0, SQLite's boolean convention.
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        try statement.bind(Int64(self ? 1 : 0), at: index)
    }
}

extension String: SQLiteBindable {
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(self, at: index) }
}

extension Array: SQLiteBindable where Element == UInt8 {
    /// Binds the bytes as a blob.
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(self, at: index) }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    /// Binds the wrapped value, or NULL when nil.
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        switch self {
        case .some(let value): try value.bind(to: statement, at: index)
        case .none: try statement.bindNull(at: index)
        }
    }
}

/// An explicit SQL NULL, for positional binding lists where a bare `nil` has no type.
public struct SQLiteNull: SQLiteBindable, Sendable {
    /// The NULL value.
    public init() {}
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bindNull(at: index) }
}
