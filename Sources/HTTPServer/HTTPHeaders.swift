/// An ordered list of header fields with case-insensitive name lookup (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String

        /// Whether the field's name is `name`, ignoring ASCII case, without building a new string.
        func isNamed(_ name: String) -> Bool { self.name.utf8.equalsIgnoringASCIICase(name.utf8) }
    }

    private var fields: [Field] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        fields.reserveCapacity(pairs.count)
        for (name, value) in pairs { add(name: name, value: value) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name with a single one.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    public mutating func remove(name: String) {
        fields.removeAll { $0.isNamed(name) }
    }

    /// The first value of the named field, if any.
    public subscript(name: String) -> String? {
        fields.first { $0.isNamed(name) }?.value
    }

    /// Every value of the named field, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.isNamed(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The comma-separated list elements of every field of this name, trimmed and lowercased
    /// (RFC 9110 §5.6.1), e.g. for `Connection` and `Transfer-Encoding`.
    public func tokens(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces().lowercased() }
            .filter { !$0.isEmpty }
    }
}

extension String.UTF8View {
    /// Equal byte for byte once ASCII letters are folded to lower case.
    func equalsIgnoringASCIICase(_ other: String.UTF8View) -> Bool {
        guard count == other.count else { return false }
        // Native strings hand out their bytes; bridged or foreign ones are compared byte by byte.
        let fast = withContiguousStorageIfAvailable { a in
            other.withContiguousStorageIfAvailable { b in Self.equalFolded(a, b) }
        }
        return (fast ?? nil) ?? Self.equalFolded(Array(self), Array(other))
    }

    private static func equalFolded(_ a: some RandomAccessCollection<UInt8>, _ b: some RandomAccessCollection<UInt8>) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            // Only letters differ by case: fold both (0x20 is the case bit) and compare as letters.
            let lower = x | 0x20
            guard lower == y | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }
}

extension Substring {
    /// Trims spaces and horizontal tabs (OWS) from both ends.
    func trimmingSpaces() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
