/// A value bound to a statement parameter: the one currency between the typed Store API and
/// either engine. Every value reaches the database as a bound parameter, never as SQL text.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value that can be bound to a statement parameter of either engine.
public protocol SQLValueConvertible {
    /// The value as bound.
    var sqlValue: SQLValue { get }
}

extension Int64: SQLValueConvertible { public var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLValueConvertible { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Double: SQLValueConvertible { public var sqlValue: SQLValue { .real(self) } }
/// 1 or 0, SQLite's boolean convention (PostgreSQL compares it with integers in our SQL).
extension Bool: SQLValueConvertible { public var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension String: SQLValueConvertible { public var sqlValue: SQLValue { .text(self) } }
extension Array: SQLValueConvertible where Element == UInt8 { public var sqlValue: SQLValue { .blob(self) } }
extension SQLValue: SQLValueConvertible { public var sqlValue: SQLValue { self } }
extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
