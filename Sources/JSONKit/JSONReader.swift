/// A strict RFC 8259 JSON reader.
///
/// Strictness is deliberate: the service reads documents from untrusted clients, and anything
/// a lenient parser would guess at (trailing commas, `NaN`, leading zeros, lone surrogates,
/// malformed UTF-8, duplicate keys, trailing garbage) is rejected with the byte offset and a
/// message. Every limit lives in `Limits`; the size of the whole document is the caller's job
/// (the HTTP layer caps bodies before they reach the reader).
///
/// Numbers are parsed by hand with Clinger's fast path (a mantissa of at most 2^53 scaled by an
/// exact power of ten up to 10^22 is exact after one multiplication or division) and fall back to
/// `strtod` in the C locale for everything else, so every result is correctly rounded.
public struct JSONReader: Sendable {
    /// Bounds that keep a hostile document from exhausting the stack or memory.
    public struct Limits: Sendable, Equatable {
        /// Deepest nesting of arrays and objects; the reader recurses once per level, so this
        /// also bounds stack use. `[[1]]` has depth 2. Default 64.
        public var maxDepth: Int
        /// Longest string (key or value) in UTF-8 bytes after unescaping. Default 1 MiB.
        public var maxStringLength: Int
        /// Longest number token in bytes. Correctly rounded numbers never need more than
        /// ~770 significant digits, so the default 1,024 rejects nothing a writer would emit.
        public var maxNumberLength: Int

        /// Limits with the documented defaults, each overridable.
        public init(maxDepth: Int = 64, maxStringLength: Int = 1 << 20, maxNumberLength: Int = 1024) {
            self.maxDepth = maxDepth
            self.maxStringLength = maxStringLength
            self.maxNumberLength = maxNumberLength
        }
    }

    /// The limits this reader enforces.
    public var limits: Limits

    /// A reader with the given limits.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses one JSON value that spans the whole buffer (surrounding whitespace allowed).
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONParseError(.unexpectedEndOfInput, at: 0)
        }
        var parser = JSONParser(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, limits: limits)
        return try parser.parseDocument()
    }

    /// Parses one JSON value that spans the whole array.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        // withUnsafeBytes only rethrows untyped errors; carry the typed one out in a Result.
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer) }
        }.get()
    }

    /// Parses the UTF-8 form of `text`.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
        }.get()
    }

    /// Parses with the given (or default) limits.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try JSONReader(limits: limits).parse(bytes)
    }

    /// Parses with the given (or default) limits.
    public static func parse(_ bytes: UnsafeRawBufferPointer, limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try JSONReader(limits: limits).parse(bytes)
    }

    /// Parses the UTF-8 form of `text` with the given (or default) limits.
    public static func parse(_ text: String, limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try JSONReader(limits: limits).parse(text)
    }
}
