/// The current row of a query, read by 0-based column index: what a record decodes from,
/// whichever engine produced it. NULL reads as 0, "" or [] through the non-optional accessors.
public protocol SQLRow {
    var columnCount: Int { get }
    func isNull(at index: Int) -> Bool
    func int64(at index: Int) -> Int64
    func double(at index: Int) -> Double
    func string(at index: Int) -> String
    func blob(at index: Int) -> [UInt8]
}

extension SQLRow {
    /// Column `index` as an `Int`.
    public func int(at index: Int) -> Int { Int(truncatingIfNeeded: int64(at: index)) }
    /// Column `index` as an integer, or nil when NULL.
    public func optionalInt64(at index: Int) -> Int64? { isNull(at: index) ? nil : int64(at: index) }
    /// Column `index` as a double, or nil when NULL.
    public func optionalDouble(at index: Int) -> Double? { isNull(at: index) ? nil : double(at: index) }
    /// Column `index` as text, or nil when NULL.
    public func optionalString(at index: Int) -> String? { isNull(at: index) ? nil : string(at: index) }
}
