/// A JSON Pointer (RFC 6901): the location of a value inside a document, e.g. `/strokes/3/y`.
///
/// Reference tokens are kept unescaped, as strings; an array index is its decimal form.
/// That matches RFC 6901, where whether `3` names an array element or an object member is
/// decided by the document it is applied to, and it makes equality textual
/// (`JSONPointer(parsing: "/a/0") == .root.appending("a").appending(0)`).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first. Empty for the whole document.
    public private(set) var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer()

    /// A pointer made of the given unescaped tokens.
    public init(tokens: [String] = []) {
        self.tokens = tokens
    }

    /// Parses the RFC 6901 string form: `""` or `/`-separated tokens with `~0` for `~` and `~1` for `/`.
    public init(parsing text: String) throws(JSONPointerSyntaxError) {
        guard !text.isEmpty else {
            self.init()
            return
        }
        guard text.hasPrefix("/") else { throw JSONPointerSyntaxError(pointer: text, reason: "must start with '/'") }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var characters = raw.makeIterator()
            while let character = characters.next() {
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                switch characters.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw JSONPointerSyntaxError(pointer: text, reason: "'~' must be followed by '0' or '1'")
                }
            }
            tokens.append(token)
        }
        self.init(tokens: tokens)
    }

    /// Whether this points at the whole document.
    public var isRoot: Bool { tokens.isEmpty }

    /// This pointer extended by an object member name.
    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    /// This pointer extended by an array index.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The pointer one level up; the root's parent is the root.
    public var parent: JSONPointer {
        JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The RFC 6901 string form, e.g. `/strokes/3/y` (`""` for the root).
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            for character in token {
                switch character {
                case "~": text.append("~0")
                case "/": text.append("~1")
                default: text.append(character)
                }
            }
        }
        return text
    }

    /// The value this pointer names in `document`, or `nil` when it names nothing.
    /// Array tokens must be canonical decimal indexes (`0`, `12`; not `01` or `-`).
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case let .object(object):
                guard let next = object[token] else { return nil }
                current = next
            case .array, .numbers:
                guard let index = Self.arrayIndex(token), let next = current[index] else { return nil }
                current = next
            default:
                return nil
            }
        }
        return current
    }

    private static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              first != 0x30 || token.utf8.count == 1
        else { return nil }
        return Int(token)
    }
}

/// A string that is not a valid RFC 6901 pointer.
public struct JSONPointerSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that failed to parse.
    public let pointer: String
    /// What is wrong with it.
    public let reason: String

    /// "invalid JSON pointer "a/b": must start with '/'".
    public var description: String { "invalid JSON pointer \"\(pointer)\": \(reason)" }
}
