/// Serialises `JSONValue`s to compact (or indented) UTF-8 JSON without Foundation.
///
/// - Keys are written in the object's insertion order, so output is deterministic.
/// - Strings are escaped per RFC 8259 §7: `"` `\` and U+0000–U+001F; everything else,
///   including `/` and non-ASCII, is written as raw UTF-8.
/// - Integral numbers with magnitude ≤ 2^53 are written without a fraction (`3`, not `3.0`);
///   other numbers use Swift's shortest round-trip form (`0.1`, `1e-07`, `1.5e+300`), which
///   reads back to the identical `Double`. `-0` is written as `-0`.
/// - Non-finite numbers have no JSON form; they are written as `null` (as JavaScript's
///   `JSON.stringify` does) rather than failing a whole response. The reader never produces
///   them, so this only concerns values computed by the application.
public struct JSONWriter: Sendable {
    /// Output formatting.
    public struct Options: Sendable, Equatable {
        /// Newlines and two-space indentation, `"key": value`. Default off (compact).
        public var prettyPrinted: Bool

        /// Options with the given formatting.
        public init(prettyPrinted: Bool = false) {
            self.prettyPrinted = prettyPrinted
        }
    }

    /// The formatting this writer uses.
    public var options: Options

    /// A writer with the given options.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The UTF-8 JSON text of `value`.
    public func write(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(value, into: &output)
        return output
    }

    /// Appends the UTF-8 JSON text of `value` to `output`.
    public func write(_ value: JSONValue, into output: inout [UInt8]) {
        write(value, into: &output, indent: 0)
    }

    /// The JSON text of `value` as a `String`.
    public func string(_ value: JSONValue) -> String {
        String(decoding: write(value), as: UTF8.self)
    }

    /// Compact UTF-8 JSON for `value`.
    public static func write(_ value: JSONValue) -> [UInt8] {
        JSONWriter().write(value)
    }

    private func write(_ value: JSONValue, into output: inout [UInt8], indent: Int) {
        switch value {
        case .null: Self.append("null", to: &output)
        case let .bool(flag): Self.append(flag ? "true" : "false", to: &output)
        case let .number(number): Self.appendNumber(number, to: &output)
        case let .string(text): Self.appendString(text, to: &output)
        case let .numbers(numbers):
            writeList(numbers, into: &output, indent: indent, open: UInt8(ascii: "["), close: UInt8(ascii: "]")) { number, output, _ in
                Self.appendNumber(number, to: &output)
            }
        case let .array(elements):
            writeList(elements, into: &output, indent: indent, open: UInt8(ascii: "["), close: UInt8(ascii: "]")) { element, output, inner in
                write(element, into: &output, indent: inner)
            }
        case let .object(object):
            writeList(object, into: &output, indent: indent, open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { pair, output, inner in
                Self.appendString(pair.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if options.prettyPrinted { output.append(UInt8(ascii: " ")) }
                write(pair.value, into: &output, indent: inner)
            }
        }
    }

    private func writeList<C: Collection>(
        _ items: C, into output: inout [UInt8], indent: Int, open: UInt8, close: UInt8,
        element: (C.Element, inout [UInt8], Int) -> Void
    ) {
        output.append(open)
        guard !items.isEmpty else {
            output.append(close)
            return
        }
        let inner = indent + 1
        var first = true
        for item in items {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            if options.prettyPrinted { Self.newline(indent: inner, into: &output) }
            element(item, &output, inner)
        }
        if options.prettyPrinted { Self.newline(indent: indent, into: &output) }
        output.append(close)
    }

    private static func newline(indent: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func append(_ literal: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
