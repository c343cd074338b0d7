/// A JSON document or fragment (RFC 8259).
///
/// Arrays that hold only numbers are stored as `.numbers([Double])` rather than as an array of
/// `.number` boxes: ink documents are mostly long coordinate arrays, and this keeps them as a
/// single contiguous buffer from the parser to the stroke model. The reader produces `.numbers`
/// for every non-empty all-number array; `.array` is used for everything else (including `[]`).
/// Equality treats `.numbers(xs)` and `.array(xs.map(JSONValue.number))` as the same value, so
/// code that builds values by hand need not care which form it picks.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number. The reader never produces a non-finite value.
    case number(Double)
    /// A string of Unicode scalars (never holds lone surrogates).
    case string(String)
    /// An array of arbitrary values.
    case array([JSONValue])
    /// An array whose elements are all numbers, stored unboxed.
    case numbers([Double])
    /// An object: ordered key/value pairs with unique keys.
    case object(JSONObject)

    /// The JSON type of a value, for messages such as "expected string, found number".
    public enum Kind: String, Sendable, Equatable, CustomStringConvertible {
        case null, bool, number, string, array, object

        /// The lowercase JSON type name.
        public var description: String {
            switch self {
            case .null: "null"
            case .bool: "boolean"
            case .number: "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            }
        }
    }

    /// The JSON type of this value (`.numbers` is an `.array`).
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array, .numbers: .array
        case .object: .object
        }
    }

    /// Builds an object from ordered pairs; a repeated key keeps its first position and its last value.
    public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs))
    }
}

extension JSONValue: Equatable {
    /// Structural equality. Object keys compare in order; `.numbers` equals the equivalent `.array`.
    /// Numbers compare as `Double`s (so `-0 == 0`).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.numbers(a), .numbers(b)): a == b
        case let (.numbers(a), .array(b)), let (.array(b), .numbers(a)):
            a.count == b.count && zip(a, b).allSatisfy { number, value in value == .number(number) }
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of this value.
    public var description: String { JSONWriter().string(self) }
}
