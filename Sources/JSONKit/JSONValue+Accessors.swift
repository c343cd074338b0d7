extension JSONValue {
    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` of an array; `nil` when out of bounds or not an array.
    public subscript(index: Int) -> JSONValue? {
        switch self {
        case let .array(elements):
            elements.indices.contains(index) ? elements[index] : nil
        case let .numbers(numbers):
            numbers.indices.contains(index) ? .number(numbers[index]) : nil
        default:
            nil
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        guard case let .bool(value) = self else { return nil }
        return value
    }

    /// The number, if this is one.
    public var doubleValue: Double? {
        guard case let .number(value) = self else { return nil }
        return value
    }

    /// The number as an `Int`, if it is integral and exactly representable (|n| ≤ 2^53).
    public var intValue: Int? {
        guard case let .number(value) = self else { return nil }
        return Self.exactInt(value)
    }

    /// The string, if this is one.
    public var stringValue: String? {
        guard case let .string(value) = self else { return nil }
        return value
    }

    /// The elements, if this is an array (unboxed number arrays are boxed on the fly).
    public var arrayValue: [JSONValue]? {
        switch self {
        case let .array(elements): elements
        case let .numbers(numbers): numbers.map(JSONValue.number)
        default: nil
        }
    }

    /// The numbers, if this is an array whose elements are all numbers (`[]` gives `[]`).
    /// Free for `.numbers`, which the reader produces for every non-empty all-number array.
    public var doubleArray: [Double]? {
        switch self {
        case let .numbers(numbers):
            return numbers
        case let .array(elements):
            var numbers = [Double]()
            numbers.reserveCapacity(elements.count)
            for element in elements {
                guard case let .number(value) = element else { return nil }
                numbers.append(value)
            }
            return numbers
        default:
            return nil
        }
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        guard case let .object(object) = self else { return nil }
        return object
    }

    /// `value` as an `Int` when it is integral and |value| ≤ 2^53, where every integer is exact.
    static func exactInt(_ value: Double) -> Int? {
        guard value.isFinite, value.rounded(.towardZero) == value, value.magnitude <= 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }
}
