/// A pull tokenizer for XML 1.0 documents in UTF-8, written for `InkMLReader`.
///
/// It checks well-formedness (one root element, matching tags, quoted and unique attributes,
/// valid references, comments without `--`, no text outside the root) and hands out start
/// tags, end tags and text in document order. Comments and processing instructions are
/// skipped; CDATA sections come out as text, since that is what they are.
///
/// Deliberately unsupported, and refused with an error rather than ignored: any `<!DOCTYPE`
/// (so there are no internal or external DTD subsets, no entity declarations and hence no
/// entity expansion of any kind: no billion laughs, no external entities), references to
/// entities other than the five predefined ones, and encodings other than UTF-8.
///
/// Positions are byte offsets into the caller's buffer; every read checks `position < count`.
struct XMLScanner {
    /// The whole document, kept alive by the caller for the scanner's lifetime.
    let document: UnsafeBufferPointer<UInt8>
    let limits: InkMLLimits
    /// Offset of the next byte to look at.
    var position = 0
    /// Qualified-name ranges of the elements open around `position`.
    private var open: [Range<Int>] = []
    private var phase = Phase.prolog
    /// An empty-element tag (`<a/>`) is reported as a start tag and then an end tag.
    private var pendingEmptyEnd: Int?

    private enum Phase {
        case prolog, content, epilog, finished
    }

    /// A scanner positioned after the byte order mark and XML declaration, if any.
    init(document: UnsafeBufferPointer<UInt8>, limits: InkMLLimits) throws(InkMLError) {
        self.document = document
        self.limits = limits
        try checkCharacters()
        if document.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
        }
        try scanDeclaration()
    }

    /// How many elements are open.
    var depth: Int { open.count }

    /// The next token. After `.endOfDocument` it keeps answering `.endOfDocument`.
    mutating func next() throws(InkMLError) -> XMLToken {
        if let offset = pendingEmptyEnd {
            pendingEmptyEnd = nil
            closeElement()
            return .endTag(offset: offset)
        }
        switch phase {
        case .prolog, .epilog: return try nextOutsideRoot()
        case .content: return try nextInContent()
        case .finished: return .endOfDocument
        }
    }

    // MARK: Outside the root element

    /// Prolog and epilog: whitespace, comments and processing instructions around the root.
    private mutating func nextOutsideRoot() throws(InkMLError) -> XMLToken {
        while true {
            skipWhitespace()
            guard position < document.count else {
                if phase == .prolog { throw error(.invalid, "the document has no root element; expected <ink>") }
                phase = .finished
                return .endOfDocument
            }
            guard document[position] == UInt8(ascii: "<") else {
                throw error(.malformed, phase == .prolog
                    ? "expected the root element <ink>, found text \(describe(position))"
                    : "only comments and processing instructions may follow the root element, found text \(describe(position))")
            }
            switch byte(at: position + 1) {
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if matches("<!--", at: position) {
                    try skipComment()
                } else {
                    throw markupDeclarationError()
                }
            default:
                guard phase == .prolog else {
                    throw error(.malformed, "a document has one root element; found another one after it")
                }
                phase = .content
                return .startTag(try scanStartTag())
            }
        }
    }

    // MARK: Inside the root element

    private mutating func nextInContent() throws(InkMLError) -> XMLToken {
        while true {
            guard position < document.count else {
                let name = open.last.map { String(decoding: document[$0], as: UTF8.self) } ?? "ink"
                throw error(.malformed, "the document ended inside <\(name)>; expected </\(name)>")
            }
            guard document[position] == UInt8(ascii: "<") else {
                return .text(try scanText())
            }
            switch byte(at: position + 1) {
            case UInt8(ascii: "/"):
                return try scanEndTag()
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if matches("<!--", at: position) {
                    try skipComment()
                } else if matches("<![CDATA[", at: position) {
                    return .text(try scanCDATA())
                } else {
                    throw markupDeclarationError()
                }
            default:
                return .startTag(try scanStartTag())
            }
        }
    }

    /// Character data up to the next `<`, with references checked (and decoded later, only
    /// where the reader needs the text).
    private mutating func scanText() throws(InkMLError) -> XMLText {
        let start = position
        var hasReferences = false
        while position < document.count {
            let byte = document[position]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                position = try reference(at: position).end
                hasReferences = true
                continue
            }
            if byte == UInt8(ascii: "]"), matches("]]>", at: position) {
                throw error(.malformed, "']]>' is not allowed in text; write ']]&gt;'")
            }
            position += 1
        }
        return XMLText(range: start..<position, hasReferences: hasReferences)
    }

    /// `<![CDATA[ … ]]>`: its content is text, taken literally.
    private mutating func scanCDATA() throws(InkMLError) -> XMLText {
        let start = position
        let contentStart = position + 9
        guard let end = find("]]>", from: contentStart) else {
            throw error(.malformed, "CDATA section not closed; expected ']]>'", at: start)
        }
        position = end + 3
        return XMLText(range: contentStart..<end, hasReferences: false)
    }

    // MARK: Tags

    /// `<name attribute="value" …>` or `<name … />`, at `position` (on the `<`).
    private mutating func scanStartTag() throws(InkMLError) -> XMLStartTag {
        let offset = position
        guard open.count < limits.maxDepth else {
            throw error(.malformed, "elements are nested deeper than \(limits.maxDepth) levels")
        }
        position += 1
        let nameRange = try scanName(expecting: "an element name after '<'")
        let name = try qualifiedName(nameRange)
        var attributes: [XMLAttribute] = []
        while true {
            let hadSpace = skipWhitespace()
            guard position < document.count else {
                throw error(.malformed, "the document ended inside the start tag <\(name.qualified)>", at: offset)
            }
            let byte = document[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                open.append(nameRange)
                return XMLStartTag(name: name, attributes: attributes, isEmpty: false, offset: offset)
            }
            if byte == UInt8(ascii: "/") {
                guard self.byte(at: position + 1) == UInt8(ascii: ">") else {
                    throw error(.malformed, "expected '>' after '/' in the tag <\(name.qualified)>", at: position + 1)
                }
                position += 2
                open.append(nameRange)
                pendingEmptyEnd = offset
                return XMLStartTag(name: name, attributes: attributes, isEmpty: true, offset: offset)
            }
            guard hadSpace else {
                throw error(.malformed, "expected whitespace, '>' or '/>' in the tag <\(name.qualified)>, found \(describe(position))")
            }
            let attribute = try scanAttribute(in: name)
            if attributes.contains(where: { $0.name.qualified == attribute.name.qualified }) {
                throw error(.malformed, "the attribute '\(attribute.name.qualified)' appears twice on <\(name.qualified)>",
                            at: attribute.offset)
            }
            guard attributes.count < limits.maxAttributes else {
                throw error(.malformed, "more than \(limits.maxAttributes) attributes on <\(name.qualified)>", at: attribute.offset)
            }
            attributes.append(attribute)
        }
    }

    /// `name = "value"` (or single quotes); the value with references decoded and whitespace
    /// characters turned into spaces (XML 1.0 §3.3.3).
    private mutating func scanAttribute(in element: XMLName) throws(InkMLError) -> XMLAttribute {
        let offset = position
        let name = try qualifiedName(try scanName(expecting: "an attribute name, '>' or '/>' in <\(element.qualified)>"))
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: "=") else {
            throw error(.malformed, "expected '=' after the attribute name '\(name.qualified)', found \(describe(position))")
        }
        position += 1
        skipWhitespace()
        let quote = byte(at: position)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error(.malformed, "expected a quoted value for the attribute '\(name.qualified)', found \(describe(position))")
        }
        position += 1
        let start = position
        var hasReferences = false
        while true {
            guard position < document.count else {
                throw error(.malformed, "the value of the attribute '\(name.qualified)' is not closed", at: start - 1)
            }
            let byte = document[position]
            if byte == quote { break }
            if byte == UInt8(ascii: "<") {
                throw error(.malformed, "'<' is not allowed in an attribute value; write '&lt;'")
            }
            if byte == UInt8(ascii: "&") {
                position = try reference(at: position).end
                hasReferences = true
            } else {
                position += 1
            }
        }
        let range = start..<position
        position += 1
        var value: [UInt8] = []
        try decode(range, hasReferences: hasReferences, into: &value, attributeValue: true)
        return XMLAttribute(name: name, value: String(decoding: value, as: UTF8.self), offset: offset)
    }

    /// `</name>`, which must close the innermost open element.
    private mutating func scanEndTag() throws(InkMLError) -> XMLToken {
        let offset = position
        position += 2
        let nameRange = try scanName(expecting: "an element name after '</'")
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: ">") else {
            throw error(.malformed, "expected '>' to end the end tag, found \(describe(position))")
        }
        guard let innermost = open.last, document[nameRange].elementsEqual(document[innermost]) else {
            let found = String(decoding: document[nameRange], as: UTF8.self)
            let expected = open.last.map { "</\(String(decoding: document[$0], as: UTF8.self))>" } ?? "no end tag"
            throw error(.malformed, "the end tag </\(found)> does not match its start tag; expected \(expected)", at: offset)
        }
        position += 1
        closeElement()
        return .endTag(offset: offset)
    }

    private mutating func closeElement() {
        open.removeLast()
        if open.isEmpty { phase = .epilog }
    }

    // MARK: Comments, processing instructions, declarations

    /// `<!-- … -->`; `--` may not occur inside (XML 1.0 §2.5).
    private mutating func skipComment() throws(InkMLError) {
        let start = position
        guard let dashes = find("--", from: position + 4) else {
            throw error(.malformed, "comment not closed; expected '-->'", at: start)
        }
        guard byte(at: dashes + 2) == UInt8(ascii: ">") else {
            throw error(.malformed, "'--' is not allowed inside a comment", at: dashes)
        }
        position = dashes + 3
    }

    /// `<?target … ?>`, skipped. The target `xml` is reserved for the declaration at the start.
    private mutating func skipProcessingInstruction() throws(InkMLError) {
        let start = position
        position += 2
        let target = try scanName(expecting: "a processing instruction target after '<?'")
        if target.count == 3, document[target].map({ $0 | 0x20 }).elementsEqual("xml".utf8) {
            throw error(.malformed, "the XML declaration is only allowed at the very start of the document", at: start)
        }
        guard let end = find("?>", from: position) else {
            throw error(.malformed, "processing instruction not closed; expected '?>'", at: start)
        }
        guard end == position || isWhitespace(document[position]) else {
            throw error(.malformed, "expected whitespace or '?>' after the processing instruction target")
        }
        position = end + 2
    }

    /// Anything starting `<!` that is neither a comment nor a CDATA section.
    private func markupDeclarationError() -> InkMLError {
        if matches("<!DOCTYPE", at: position) {
            return error(.malformed, "document type declarations are refused: no DTD, no entity declarations, no external entities")
        }
        if matches("<!ENTITY", at: position) {
            return error(.malformed, "entity declarations are refused")
        }
        return error(.malformed, "expected a comment '<!--' or a CDATA section '<![CDATA[' after '<!'")
    }
}

/// One piece of a document, in document order.
enum XMLToken {
    /// A start tag (also for an empty-element tag, which is followed by its `.endTag`).
    case startTag(XMLStartTag)
    /// The end of the innermost open element; `offset` is where its end tag starts.
    case endTag(offset: Int)
    /// Character data or a CDATA section.
    case text(XMLText)
    /// After the root element and anything that may follow it.
    case endOfDocument
}

/// A name split at its colon (Namespaces in XML 1.0 §3).
struct XMLName: Equatable {
    /// The prefix before the colon, if any.
    let prefix: String?
    /// The part after the colon, or the whole name.
    let local: String
    /// The name as written.
    let qualified: String
}

/// An attribute with its value decoded.
struct XMLAttribute {
    let name: XMLName
    let value: String
    /// Where the attribute's name starts.
    let offset: Int
}

/// A start tag with its attributes in document order.
struct XMLStartTag {
    let name: XMLName
    let attributes: [XMLAttribute]
    /// Written `<name … />`.
    let isEmpty: Bool
    /// Where the `<` is.
    let offset: Int
}

/// A run of character data; decode it with `XMLScanner.decode(_:hasReferences:into:)`.
struct XMLText {
    /// The raw bytes in the document (for CDATA, the content between the delimiters).
    let range: Range<Int>
    /// Whether the raw bytes hold references that decoding replaces.
    let hasReferences: Bool
}
