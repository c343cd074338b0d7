/// A type that can be read from one JSON value, for `JSONObject.require(_:as:at:)`.
///
/// Deliberately not `Decodable`: conversions are explicit, cheap and report *what* they
/// expected, so a violation can say "expected integer, found 1.5".
public protocol JSONFieldDecodable {
    /// What the value must look like, for messages ("string", "integer", "array of numbers").
    static var expectedJSON: String { get }
    /// The converted value, or `nil` if `json` does not have the expected shape.
    init?(json: JSONValue)
}

extension String: JSONFieldDecodable {
    /// "string".
    public static var expectedJSON: String { "string" }
    /// A JSON string.
    public init?(json: JSONValue) {
        guard let value = json.stringValue else { return nil }
        self = value
    }
}

extension Bool: JSONFieldDecodable {
    /// "boolean".
    public static var expectedJSON: String { "boolean" }
    /// `true` or `false`.
    public init?(json: JSONValue) {
        guard let value = json.boolValue else { return nil }
        self = value
    }
}

extension Double: JSONFieldDecodable {
    /// "number".
    public static var expectedJSON: String { "number" }
    /// Any JSON number.
    public init?(json: JSONValue) {
        guard let value = json.doubleValue else { return nil }
        self = value
    }
}

extension Int: JSONFieldDecodable {
    /// "integer".
    public static var expectedJSON: String { "integer" }
    /// An integral JSON number with |n| ≤ 2^53.
    public init?(json: JSONValue) {
        guard let value = json.intValue else { return nil }
        self = value
    }
}

extension Array: JSONFieldDecodable where Element == Double {
    /// "array of numbers".
    public static var expectedJSON: String { "array of numbers" }
    /// An array whose elements are all numbers.
    public init?(json: JSONValue) {
        guard let value = json.doubleArray else { return nil }
        self = value
    }
}

extension JSONObject: JSONFieldDecodable {
    /// "object".
    public static var expectedJSON: String { "object" }
    /// A JSON object.
    public init?(json: JSONValue) {
        guard let value = json.objectValue else { return nil }
        self = value
    }
}

extension JSONValue: JSONFieldDecodable {
    /// "any value".
    public static var expectedJSON: String { "any value" }
    /// Any value at all.
    public init?(json: JSONValue) { self = json }
}
