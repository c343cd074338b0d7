/// Reads W3C InkML (https://www.w3.org/TR/InkML/, 2011) into strokes, without Foundation's
/// XML parser and without any DTD or entity processing.
///
/// What is read:
/// - the root `<ink>` in the InkML namespace `http://www.w3.org/2003/InkML`, with or without a
///   prefix (an `<ink>` in no namespace at all is accepted too, as many producers write it);
/// - `<trace>` elements anywhere under `<ink>` and under (nested) `<traceGroup>`s, in document
///   order, one stroke each; `type="penUp"` traces are hover, not ink, and are skipped;
/// - the trace format each trace uses: from its `contextRef`, else its group's `contextRef`,
///   else the current context, which `<context>` and (as CROHME files write it) a bare
///   `<traceFormat>` under `<ink>` change; by default X then Y. Formats come from
///   `<traceFormat>`, `<context>` (child `traceFormat`, `traceFormatRef`, `inkSourceRef`,
///   `contextRef`) and `<inkSource>` under `<definitions>` or in place, referenced as `#id`;
/// - channels X and Y (required), T (times in ms, or `units` `s`/`us`) and F (force, scaled
///   from `min`…`max` to 0…1 when `max` is given, taken as is when every value already lies in
///   0…1, dropped otherwise); `orientation="-ve"` on X or Y flips the axis; other channels and
///   intermittent channels are read and dropped. See `InkMLTraceParser` for the trace syntax,
///   including the `'` and `"` difference encodings.
///
/// Everything else (annotations, brushes, trace views, timestamps, elements of other
/// namespaces) is skipped whole. The result obeys the same rules as `InkDecoder`'s:
/// `InkLimits` counts (refused as `.tooLarge`), |x|,|y| ≤ `maxCoordinateMagnitude`, times
/// finite, ≥ 0 and non-decreasing within a stroke, pressures in 0…1, at least one point.
public struct InkMLReader: Sendable {
    /// The InkML namespace name.
    public static let namespace = "http://www.w3.org/2003/InkML"

    /// Limits on the ink: strokes, points, coordinate magnitude.
    public var limits: InkLimits
    /// Limits on the markup around it: nesting, attributes, definitions, token lengths.
    public var markupLimits: InkMLLimits

    /// A reader with the given limits.
    public init(limits: InkLimits = InkLimits(), markupLimits: InkMLLimits = InkMLLimits()) {
        self.limits = limits
        self.markupLimits = markupLimits
    }

    /// The strokes of the InkML document in `bytes` (UTF-8), or why not and where.
    public func read(_ bytes: [UInt8]) throws(InkMLError) -> [Stroke] {
        // withUnsafeBufferPointer only rethrows untyped errors; carry the typed one in a Result.
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(InkMLError) -> [Stroke] in try read(buffer) }
        }.get()
    }

    /// The strokes of the InkML document in `bytes` (UTF-8), or why not and where.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(InkMLError) -> [Stroke] {
        var document = try InkMLDocumentReader(document: bytes, limits: limits, markupLimits: markupLimits)
        return try document.run()
    }
}

/// The InkML elements the reader interprets; any other element is skipped with its content.
enum InkMLElement: String {
    case ink, definitions, context, inkSource, traceFormat, intermittentChannels, channel, trace, traceGroup
}

/// The state of reading one document: open elements, definitions, the current format.
struct InkMLDocumentReader {
    var scanner: XMLScanner
    let limits: InkLimits
    let markupLimits: InkMLLimits

    /// What each open element means to the reader.
    enum Frame {
        case element(InkMLElement)
        /// A `<traceGroup>`, with the group format to restore at its end.
        case traceGroup(restoring: InkMLTraceFormat?)
        /// Unknown, foreign or misplaced: it and everything inside are skipped.
        case skipped
    }

    var frames: [Frame] = []
    /// Namespace declarations in scope (prefix nil: the default namespace), innermost last,
    /// and where each element's own declarations start.
    var bindings: [(prefix: String?, name: String)] = []
    var bindingStarts: [Int] = []
    /// The namespace of the root `<ink>` (InkML's or none): InkML elements are those in it.
    var inkNamespace = ""

    var strokes: [Stroke] = []
    var totalPoints = 0
    /// The format for traces outside groups, changed by `<context>` and `<traceFormat>` in `<ink>`.
    var currentFormat = InkMLTraceFormat.standard
    /// The format of the innermost `<traceGroup contextRef>`, if any.
    var groupFormat: InkMLTraceFormat?

    var formats: [String: InkMLTraceFormat] = [:]
    var inkSources: [String: InkMLTraceFormat] = [:]
    var contexts: [String: InkMLTraceFormat] = [:]
    var definitionCount = 0

    /// The element being built, at most one of each at a time (none of them nests).
    var formatBuilder: FormatBuilder?
    var inkSourceBuilder: InkSourceBuilder?
    var contextBuilder: ContextBuilder?
    var traceBuilder: TraceBuilder?

    init(document: UnsafeBufferPointer<UInt8>, limits: InkLimits, markupLimits: InkMLLimits) throws(InkMLError) {
        scanner = try XMLScanner(document: document, limits: markupLimits)
        self.limits = limits
        self.markupLimits = markupLimits
    }

    mutating func run() throws(InkMLError) -> [Stroke] {
        while true {
            switch try scanner.next() {
            case let .startTag(tag):
                try start(tag)
            case let .endTag(offset):
                try end(at: offset)
            case let .text(text):
                if traceBuilder != nil, case .element(.trace)? = frames.last {
                    traceBuilder?.segments.append(text)
                }
            case .endOfDocument:
                return strokes
            }
        }
    }

    // MARK: Elements

    private mutating func start(_ tag: XMLStartTag) throws(InkMLError) {
        try declareNamespaces(of: tag)
        let namespace = try namespaceName(of: tag.name, at: tag.offset, isAttribute: false)
        for attribute in tag.attributes where attribute.name.prefix != nil && attribute.name.prefix != "xmlns" {
            _ = try namespaceName(of: attribute.name, at: attribute.offset, isAttribute: true)
        }

        guard let parent = frames.last else {
            guard tag.name.local == "ink", namespace == InkMLReader.namespace || namespace.isEmpty else {
                let found = namespace.isEmpty ? "<\(tag.name.qualified)>" : "<\(tag.name.qualified)> in the namespace \(namespace)"
                throw error(.invalid, "the root element must be <ink> in the namespace \(InkMLReader.namespace), found \(found)",
                            at: tag.offset)
            }
            inkNamespace = namespace
            frames.append(.element(.ink))
            return
        }
        let element = namespace == inkNamespace ? InkMLElement(rawValue: tag.name.local) : nil
        if case .element(.trace) = parent {
            throw error(.invalid, "elements are not allowed inside <trace>; found <\(tag.name.qualified)>", at: tag.offset)
        }
        guard let element, Self.allows(element, in: parent) else {
            frames.append(.skipped)
            return
        }
        switch element {
        case .traceFormat:
            formatBuilder = FormatBuilder(id: identifier(of: tag), offset: tag.offset)
        case .channel:
            try addChannel(tag, intermittent: isElement(parent, .intermittentChannels))
        case .inkSource:
            inkSourceBuilder = InkSourceBuilder(id: identifier(of: tag), offset: tag.offset)
        case .context:
            contextBuilder = try startContext(tag, inInk: isElement(parent, .ink))
        case .traceGroup:
            let restoring = groupFormat
            if let reference = attribute("contextRef", of: tag) {
                groupFormat = try resolve(reference.value, in: contexts, kind: "<context>", at: reference.offset)
            }
            frames.append(.traceGroup(restoring: restoring))
            return
        case .trace:
            traceBuilder = try startTrace(tag)
        case .ink, .definitions, .intermittentChannels:
            break
        }
        frames.append(.element(element))
    }

    private mutating func end(at offset: Int) throws(InkMLError) {
        let frame = frames.removeLast()
        bindings.removeSubrange(bindingStarts.removeLast()...)
        switch frame {
        case .skipped:
            break
        case let .traceGroup(restoring):
            groupFormat = restoring
        case .element(.traceFormat):
            try finishTraceFormat()
        case .element(.inkSource):
            try finishInkSource()
        case .element(.context):
            try finishContext()
        case .element(.trace):
            try finishTrace()
        case .element:
            break
        }
    }

    /// Where each interpreted element may appear; anywhere else it is skipped like an unknown one.
    private static func allows(_ element: InkMLElement, in parent: Frame) -> Bool {
        switch parent {
        case .skipped:
            return false
        case .traceGroup:
            return element == .trace || element == .traceGroup
        case let .element(container):
            switch container {
            case .ink: return [.definitions, .context, .traceFormat, .trace, .traceGroup].contains(element)
            case .definitions: return [.context, .traceFormat, .inkSource].contains(element)
            case .context: return element == .traceFormat || element == .inkSource
            case .inkSource: return element == .traceFormat
            case .traceFormat: return element == .channel || element == .intermittentChannels
            case .intermittentChannels: return element == .channel
            case .channel, .trace, .traceGroup: return false
            }
        }
    }

    private func isElement(_ frame: Frame, _ element: InkMLElement) -> Bool {
        if case .element(element) = frame { return true }
        return false
    }

    // MARK: Namespaces

    /// Records the `xmlns` and `xmlns:prefix` attributes of an element (Namespaces in XML §3).
    private mutating func declareNamespaces(of tag: XMLStartTag) throws(InkMLError) {
        bindingStarts.append(bindings.count)
        for attribute in tag.attributes {
            if attribute.name.prefix == nil, attribute.name.local == "xmlns" {
                bindings.append((nil, attribute.value))
            } else if attribute.name.prefix == "xmlns" {
                let prefix = attribute.name.local
                guard !attribute.value.isEmpty else {
                    throw error(.malformed, "the prefix '\(prefix)' cannot be bound to an empty namespace name", at: attribute.offset)
                }
                guard prefix != "xmlns", (prefix == "xml") == (attribute.value == Self.xmlNamespace) else {
                    throw error(.malformed, "the prefix '\(prefix)' cannot be bound to '\(attribute.value)'", at: attribute.offset)
                }
                bindings.append((prefix, attribute.value))
            }
        }
    }

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The namespace name of an element or attribute; unprefixed attributes have none.
    private func namespaceName(of name: XMLName, at offset: Int, isAttribute: Bool) throws(InkMLError) -> String {
        guard let prefix = name.prefix else {
            if isAttribute { return "" }
            return bindings.last(where: { $0.prefix == nil })?.name ?? ""
        }
        if prefix == "xml" { return Self.xmlNamespace }
        guard let binding = bindings.last(where: { $0.prefix == prefix }) else {
            throw error(.malformed, "the namespace prefix '\(prefix)' of '\(name.qualified)' is not declared", at: offset)
        }
        return binding.name
    }

    // MARK: Attributes and errors

    /// The unprefixed attribute `name`, if present.
    func attribute(_ name: String, of tag: XMLStartTag) -> XMLAttribute? {
        tag.attributes.first { $0.name.prefix == nil && $0.name.local == name }
    }

    /// `xml:id` (or `id`, as older drafts wrote it), if present.
    func identifier(of tag: XMLStartTag) -> XMLAttribute? {
        tag.attributes.first { $0.name.prefix == "xml" && $0.name.local == "id" } ?? attribute("id", of: tag)
    }

    func error(_ kind: InkMLError.Kind, _ detail: String, at offset: Int) -> InkMLError {
        InkMLError(kind, detail, at: offset, in: scanner.document)
    }
}
