/// `<trace>` being read: its format and the text pieces between its tags.
struct TraceBuilder {
    let format: InkMLTraceFormat
    /// Where the start tag is.
    let offset: Int
    /// `type="penUp"`: read for well-formedness, not turned into a stroke.
    let skipped: Bool
    var segments: [XMLText] = []
}

extension InkMLDocumentReader {
    /// Resolves the trace's format and checks it can make a stroke, before reading any point.
    func startTrace(_ tag: XMLStartTag) throws(InkMLError) -> TraceBuilder {
        var skipped = false
        if let type = attribute("type", of: tag) {
            switch type.value.trimmingXMLSpace() {
            case "penDown", "indeterminate": break
            case "penUp": skipped = true
            default:
                throw error(.invalid, "trace type must be penDown, penUp or indeterminate, found '\(type.value)'", at: type.offset)
            }
        }
        var format = groupFormat ?? currentFormat
        if let reference = attribute("contextRef", of: tag) {
            format = try resolve(reference.value, in: contexts, kind: "<context>", at: reference.offset)
        }
        if !skipped {
            for (role, name) in [(InkMLChannel.Role.x, "X"), (.y, "Y")] where format.index(of: role) == nil {
                throw error(.invalid, "the trace format of this trace (\(format.channelList)) has no \(name) channel", at: tag.offset)
            }
            guard strokes.count < limits.maxStrokes else {
                throw error(.tooLarge, "more than \(limits.maxStrokes) traces; at most \(limits.maxStrokes) strokes are allowed",
                            at: tag.offset)
            }
        }
        return TraceBuilder(format: format, offset: tag.offset, skipped: skipped)
    }

    /// Parses the collected text into a stroke. The common case, one run of text without
    /// references, is parsed in place; otherwise the decoded pieces are joined first and
    /// problem offsets are mapped back piece by piece.
    mutating func finishTrace() throws(InkMLError) {
        guard let builder = traceBuilder else { return }
        traceBuilder = nil
        guard !builder.skipped else { return }
        let parser = InkMLTraceParser(format: builder.format, limits: limits,
                                      maxNumberLength: markupLimits.maxNumberLength,
                                      remainingPoints: limits.maxTotalPoints - totalPoints)
        let document = scanner.document
        let stroke: Stroke
        if builder.segments.count == 1, let only = builder.segments.first, !only.hasReferences {
            do throws(InkMLTraceParser.Problem) {
                stroke = try parser.parse(UnsafeBufferPointer(rebasing: document[only.range]))
            } catch {
                throw self.error(error.kind, error.detail, at: only.range.lowerBound + error.offset)
            }
        } else {
            var text: [UInt8] = []
            var starts: [(text: Int, document: Range<Int>)] = []
            for segment in builder.segments {
                starts.append((text.count, segment.range))
                try scanner.decode(segment.range, hasReferences: segment.hasReferences, into: &text)
            }
            let result = text.withUnsafeBufferPointer { buffer in
                Result { () throws(InkMLTraceParser.Problem) -> Stroke in try parser.parse(buffer) }
            }
            switch result {
            case let .success(value):
                stroke = value
            case let .failure(problem):
                // The piece the offset falls in; inside decoded references the mapping is approximate.
                let piece = starts.last { $0.text <= problem.offset }
                let offset = piece.map { min($0.document.lowerBound + problem.offset - $0.text, $0.document.upperBound) }
                throw error(problem.kind, problem.detail, at: offset ?? builder.offset)
            }
        }
        totalPoints += stroke.pointCount
        strokes.append(stroke)
    }
}
