/// `<traceFormat>` being read.
struct FormatBuilder {
    let id: XMLAttribute?
    let offset: Int
    var regular: [InkMLChannel] = []
    var names: [String] = []
    var intermittentCount = 0
}

/// `<inkSource>` being read; only its trace format matters here.
struct InkSourceBuilder {
    let id: XMLAttribute?
    let offset: Int
    var format: InkMLTraceFormat?
}

/// `<context>` being read: its own format, or what its references point to.
struct ContextBuilder {
    let id: XMLAttribute?
    /// Directly in `<ink>`: it becomes the current context when it ends.
    let inInk: Bool
    var format: InkMLTraceFormat?
    var inkSourceFormat: InkMLTraceFormat?
    /// Resolved `traceFormatRef`, `inkSourceRef` and `contextRef`, in that order of precedence.
    var referencedFormat: InkMLTraceFormat?
    var referencedInkSource: InkMLTraceFormat?
    var referencedContext: InkMLTraceFormat?
}

extension InkMLDocumentReader {
    // MARK: Trace formats

    /// A `<channel>` inside `<traceFormat>` or its `<intermittentChannels>` (InkML §3.1.2).
    mutating func addChannel(_ tag: XMLStartTag, intermittent: Bool) throws(InkMLError) {
        guard var builder = formatBuilder else { return }
        guard let nameAttribute = attribute("name", of: tag) else {
            throw error(.invalid, "a <channel> needs a name attribute", at: tag.offset)
        }
        let name = nameAttribute.value.trimmingXMLSpace()
        guard !name.isEmpty else { throw error(.invalid, "a channel name cannot be empty", at: nameAttribute.offset) }
        guard !builder.names.contains(name) else {
            throw error(.invalid, "the channel \(name) appears twice in one trace format", at: tag.offset)
        }
        guard builder.names.count < markupLimits.maxChannels else {
            throw error(.invalid, "more than \(markupLimits.maxChannels) channels in one trace format", at: tag.offset)
        }
        builder.names.append(name)

        let role: InkMLChannel.Role = switch name {
        case "X": .x
        case "Y": .y
        case "T": .time
        case "F": .force
        default: .ignored
        }
        var channel = InkMLChannel(role: role, name: name)
        if let type = attribute("type", of: tag) {
            guard let value = InkMLChannel.ValueType(rawValue: type.value.trimmingXMLSpace()) else {
                throw error(.invalid, "channel type must be decimal, integer, double or boolean, found '\(type.value)'", at: type.offset)
            }
            channel.type = value
        }
        if let orientation = attribute("orientation", of: tag) {
            switch orientation.value.trimmingXMLSpace() {
            case "+ve": channel.negated = false
            case "-ve": channel.negated = true
            default: throw error(.invalid, "orientation must be +ve or -ve, found '\(orientation.value)'", at: orientation.offset)
            }
        }
        if let minimum = attribute("min", of: tag) { channel.minimum = try number(minimum) }
        if let maximum = attribute("max", of: tag) { channel.maximum = try number(maximum) }

        if role != .ignored {
            guard channel.type != .boolean else {
                throw error(.invalid, "channel \(name) holds numbers and cannot have type boolean", at: tag.offset)
            }
        }
        if role == .force, let maximum = channel.maximum, !(maximum > (channel.minimum ?? 0)) {
            throw error(.invalid, "the max of channel F must be greater than its min (default 0)", at: tag.offset)
        }
        if role == .time, let units = attribute("units", of: tag) {
            switch units.value.trimmingXMLSpace() {
            case "ms": channel.millisecondsPerUnit = 1
            case "s": channel.millisecondsPerUnit = 1000
            case "us", "µs": channel.millisecondsPerUnit = 0.001
            default: throw error(.invalid, "unsupported time unit '\(units.value)'; expected ms, s or us", at: units.offset)
            }
        }
        if intermittent {
            guard role != .x, role != .y else {
                throw error(.invalid, "channel \(name) must be a regular channel, not an intermittent one", at: tag.offset)
            }
            builder.intermittentCount += 1
        } else {
            guard builder.intermittentCount == 0 else {
                throw error(.invalid, "regular channels must come before <intermittentChannels>", at: tag.offset)
            }
            builder.regular.append(channel)
        }
        formatBuilder = builder
    }

    mutating func finishTraceFormat() throws(InkMLError) {
        guard let builder = formatBuilder else { return }
        formatBuilder = nil
        guard !builder.regular.isEmpty else {
            throw error(.invalid, "a <traceFormat> needs at least one regular <channel>", at: builder.offset)
        }
        let format = InkMLTraceFormat(regular: builder.regular, intermittentCount: builder.intermittentCount)
        try register(format, as: builder.id, in: \.formats)
        switch frames.last {
        case .element(.ink)?: currentFormat = format
        case .element(.context)?: contextBuilder?.format = format
        case .element(.inkSource)?: inkSourceBuilder?.format = format
        default: break
        }
    }

    // MARK: Ink sources and contexts

    mutating func finishInkSource() throws(InkMLError) {
        guard let builder = inkSourceBuilder else { return }
        inkSourceBuilder = nil
        let format = builder.format ?? .standard
        try register(format, as: builder.id, in: \.inkSources)
        if case .element(.context)? = frames.last { contextBuilder?.inkSourceFormat = format }
    }

    func startContext(_ tag: XMLStartTag, inInk: Bool) throws(InkMLError) -> ContextBuilder {
        var builder = ContextBuilder(id: identifier(of: tag), inInk: inInk)
        if let reference = attribute("traceFormatRef", of: tag) {
            builder.referencedFormat = try resolve(reference.value, in: formats, kind: "<traceFormat>", at: reference.offset)
        }
        if let reference = attribute("inkSourceRef", of: tag) {
            builder.referencedInkSource = try resolve(reference.value, in: inkSources, kind: "<inkSource>", at: reference.offset)
        }
        if let reference = attribute("contextRef", of: tag) {
            builder.referencedContext = try resolve(reference.value, in: contexts, kind: "<context>", at: reference.offset)
        }
        return builder
    }

    /// A context's format is its own, else the one it references, else the one it inherits:
    /// from `contextRef`, else the current context (in `<ink>`) or the default (in `<definitions>`).
    mutating func finishContext() throws(InkMLError) {
        guard let builder = contextBuilder else { return }
        contextBuilder = nil
        let format = builder.format ?? builder.referencedFormat ?? builder.inkSourceFormat ?? builder.referencedInkSource
            ?? builder.referencedContext ?? (builder.inInk ? currentFormat : .standard)
        try register(format, as: builder.id, in: \.contexts)
        if builder.inInk { currentFormat = format }
    }

    // MARK: Identifiers and references

    /// Files a definition under its `xml:id`, if it has one.
    mutating func register(_ format: InkMLTraceFormat, as id: XMLAttribute?,
                           in table: WritableKeyPath<InkMLDocumentReader, [String: InkMLTraceFormat]>) throws(InkMLError) {
        guard let id else { return }
        let name = id.value.trimmingXMLSpace()
        guard self[keyPath: table][name] == nil else {
            throw error(.invalid, "the id '\(name)' is defined twice", at: id.offset)
        }
        definitionCount += 1
        guard definitionCount <= markupLimits.maxDefinitions else {
            throw error(.invalid, "more than \(markupLimits.maxDefinitions) definitions", at: id.offset)
        }
        self[keyPath: table][name] = format
    }

    /// The definition a reference (`#id`, or a bare id) names; it must precede the reference.
    func resolve(_ reference: String, in table: [String: InkMLTraceFormat], kind: String,
                 at offset: Int) throws(InkMLError) -> InkMLTraceFormat {
        var id = Substring(reference.trimmingXMLSpace())
        if id.hasPrefix("#") {
            id = id.dropFirst()
        } else if id.contains(where: { $0 == "#" || $0 == "/" || $0 == ":" }) {
            throw error(.invalid, "only references within the document ('#id') are supported, found '\(reference)'", at: offset)
        }
        guard let format = table[String(id)] else {
            throw error(.invalid, "no \(kind) with the id '\(id)' is defined before this reference", at: offset)
        }
        return format
    }

    /// A decimal attribute value such as `max="1023"` or `min="-0.5"`.
    func number(_ attribute: XMLAttribute) throws(InkMLError) -> Double {
        var text = Array(attribute.value.trimmingXMLSpace().utf8)
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            text.removeFirst()
        }
        let scan = text.withUnsafeBufferPointer { InkMLNumber.scan($0, at: 0, maxLength: markupLimits.maxNumberLength) }
        guard case let .value(value, end) = scan, end == text.count else {
            throw error(.invalid, "the attribute \(attribute.name.qualified) must be a number, found '\(attribute.value)'",
                        at: attribute.offset)
        }
        return negative ? -value : value
    }
}

extension String {
    /// Without leading and trailing XML whitespace (space, tab, CR, LF).
    func trimmingXMLSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
