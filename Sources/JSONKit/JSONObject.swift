/// A JSON object: key/value pairs in insertion order with unique keys.
///
/// Order is kept so that written documents are deterministic and follow the order the code
/// built them in. Lookups scan linearly for small objects (the common case: a handful of
/// fields) and go through a hash index once an object grows past `indexThreshold` keys, so a
/// hostile document with many keys cannot make lookups or the reader's duplicate check quadratic.
///
/// Duplicate keys: the reader *rejects* a document with a repeated key (RFC 8259 §4 leaves the
/// behaviour undefined, and silently picking one hides client bugs). Building an object by hand
/// with a repeated key keeps the key's first position and the last value, like assignment.
public struct JSONObject: Sendable {
    /// Above this many keys an index dictionary is kept next to the arrays.
    static let indexThreshold = 12

    /// The keys, in order.
    public private(set) var keys: [String]
    /// The values, parallel to `keys`.
    public private(set) var values: [JSONValue]
    private var index: [String: Int]?

    /// An empty object.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// An object from ordered pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// Used by the reader, which has already checked that keys are unique.
    init(uniqueKeys keys: [String], values: [JSONValue], index: [String: Int]?) {
        self.keys = keys
        self.values = values
        self.index = index
    }

    /// The position of `key`, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// The value for `key`. Assigning `nil` removes the key; assigning to a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    keys.remove(at: position)
                    values.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                if index != nil {
                    index?[key] = keys.count - 1
                } else if keys.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        index = built
    }
}

extension JSONObject: RandomAccessCollection {
    /// Positions are `0..<count`.
    public var startIndex: Int { 0 }
    /// One past the last pair.
    public var endIndex: Int { keys.count }
    /// The pair at `position`.
    public subscript(position: Int) -> (key: String, value: JSONValue) {
        (keys[position], values[position])
    }
}

extension JSONObject: Equatable {
    /// Equal when the same keys map to equal values in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// `["id": "s1", "count": 3]`, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
