/// Decodes the text of one `<trace>` into a `Stroke` (InkML §3.2.1):
///
///     trace ::= wsp* point (wsp* "," wsp* point)* ","? wsp*
///     point ::= wsp* value (wsp* value)* wsp*
///     value ::= difference_order? wsp* ("-" | "+")? wsp* number | "T" | "F" | "*" | "?"
///     difference_order ::= "!" | "'" | '"'
///
/// Values need no separator where the grammar is unambiguous (`10-5'3'4` is 10, -5, '3, '4).
/// Each point gives one value per regular channel, then optionally values for intermittent
/// channels. A prefix sets how a channel's values are encoded from that value on, until the
/// next prefix: `!` explicit, `'` first difference (added to the previous value), `"` second
/// difference (added to the previous first difference). The first difference before the
/// second point is taken as 0. A trailing comma and a `+` sign are tolerated.
///
/// X, Y, T and F become the stroke's x, y, t and p and are checked like the JSON decoder
/// checks them; other channels are read for syntax only. `T`/`F` (booleans) and `*`/`?`
/// (inferred, unknown) are accepted only in channels that are dropped.
struct InkMLTraceParser {
    let format: InkMLTraceFormat
    let limits: InkLimits
    let maxNumberLength: Int
    /// Points still allowed before the document exceeds `maxTotalPoints`.
    let remainingPoints: Int

    /// A problem at an offset in the trace text; the reader maps it into the document.
    struct Problem: Error {
        let kind: InkMLError.Kind
        let detail: String
        let offset: Int
    }

    private enum Encoding {
        case explicit, firstDifference, secondDifference
    }

    /// Decoding state of one channel.
    private struct ChannelState {
        var encoding = Encoding.explicit
        var count = 0
        var previous = 0.0
        var difference = 0.0
    }

    func parse(_ text: UnsafeBufferPointer<UInt8>) throws(Problem) -> Stroke {
        let count = text.count
        let channels = format.regular
        let maxValues = channels.count + format.intermittentCount
        var states = [ChannelState](repeating: ChannelState(), count: channels.count)
        let estimate = max(0, min(count / (2 * channels.count + 1) + 1, limits.maxPointsPerStroke))
        var x: [Double] = [], y: [Double] = [], t: [Double] = [], p: [Double] = []
        x.reserveCapacity(estimate)
        y.reserveCapacity(estimate)
        let hasTime = format.index(of: .time) != nil
        let hasForce = format.index(of: .force) != nil
        if hasTime { t.reserveCapacity(estimate) }
        if hasForce { p.reserveCapacity(estimate) }
        var forceIsScaled = true
        var previousTime = 0.0

        var position = 0
        func skipWhitespace() {
            while position < count {
                let byte = text[position]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                position += 1
            }
        }

        skipWhitespace()
        guard position < count else {
            throw Problem(kind: .invalid, detail: "a trace needs at least one point", offset: 0)
        }
        var points = 0
        while true {
            let pointStart = position
            var values = 0
            while true {
                skipWhitespace()
                if position == count || text[position] == UInt8(ascii: ",") { break }
                guard values < maxValues else {
                    throw Problem(kind: .invalid, detail: "point \(points + 1) has more than \(maxValues) values; "
                                  + "the trace format has \(Self.describe(format)); separate points with ','", offset: position)
                }
                let valueStart = position
                let channel = values < channels.count ? channels[values] : nil
                let role = channel?.role ?? .ignored

                var encoding: Encoding?
                switch text[position] {
                case UInt8(ascii: "!"): encoding = .explicit
                case UInt8(ascii: "'"): encoding = .firstDifference
                case UInt8(ascii: "\""): encoding = .secondDifference
                default: break
                }
                if encoding != nil {
                    position += 1
                    skipWhitespace()
                } else if position < count, Self.isSymbol(text[position]) {
                    guard role == .ignored else {
                        throw Problem(kind: .invalid, detail: "expected a number for channel \(channel?.name ?? ""), found "
                                      + "'\(Character(Unicode.Scalar(text[position])))'", offset: position)
                    }
                    position += 1
                    values += 1
                    continue
                }
                var negative = false
                if position < count, text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+") {
                    negative = text[position] == UInt8(ascii: "-")
                    position += 1
                    skipWhitespace()
                }
                let magnitude: Double
                switch InkMLNumber.scan(text, at: position, maxLength: maxNumberLength) {
                case let .value(value, end):
                    magnitude = value
                    position = end
                case .none:
                    throw Problem(kind: .invalid, detail: "expected a number\(channel.map { " for channel \($0.name)" } ?? ""), "
                                  + "',' or a difference prefix (! ' \"), found \(Self.describe(text, at: position))", offset: position)
                case .tooLong:
                    throw Problem(kind: .invalid, detail: "a number longer than \(maxNumberLength) bytes", offset: position)
                case .outOfRange:
                    throw Problem(kind: .invalid, detail: "a number too large for a double", offset: position)
                }
                values += 1
                guard let channel else { continue }

                let given = negative ? -magnitude : magnitude
                var state = states[values - 1]
                if let encoding { state.encoding = encoding }
                let value: Double
                switch state.encoding {
                case .explicit:
                    value = given
                case .firstDifference, .secondDifference:
                    guard state.count > 0 else {
                        throw Problem(kind: .invalid, detail: "a difference needs a previous value; the first value of "
                                      + "channel \(channel.name) in a trace must be explicit", offset: valueStart)
                    }
                    value = state.encoding == .firstDifference
                        ? state.previous + given
                        : state.previous + state.difference + given
                }
                state.difference = state.count > 0 ? value - state.previous : 0
                state.previous = value
                state.count += 1
                states[values - 1] = state

                switch role {
                case .x, .y:
                    let coordinate = channel.negated ? -value : value
                    guard coordinate.magnitude <= limits.maxCoordinateMagnitude else {
                        throw Problem(kind: .invalid, detail: "\(channel.name) value \(Self.format(coordinate)) is outside "
                                      + "±\(Self.format(limits.maxCoordinateMagnitude))", offset: valueStart)
                    }
                    if role == .x { x.append(coordinate) } else { y.append(coordinate) }
                case .time:
                    let time = value * channel.millisecondsPerUnit
                    guard time.isFinite, time >= 0 else {
                        throw Problem(kind: .invalid, detail: "time \(Self.format(time)) ms is not a finite number ≥ 0", offset: valueStart)
                    }
                    guard time >= previousTime else {
                        throw Problem(kind: .invalid, detail: "time \(Self.format(time)) ms is earlier than the previous time "
                                      + "\(Self.format(previousTime)) ms", offset: valueStart)
                    }
                    previousTime = time
                    t.append(time)
                case .force:
                    if let maximum = channel.maximum {
                        let minimum = channel.minimum ?? 0
                        let scaled = (value - minimum) / (maximum - minimum)
                        guard scaled >= 0, scaled <= 1 else {
                            throw Problem(kind: .invalid, detail: "force \(Self.format(value)) is outside the channel's range "
                                          + "\(Self.format(minimum))…\(Self.format(maximum))", offset: valueStart)
                        }
                        p.append(scaled)
                    } else {
                        // Without a declared range, only values already in 0…1 can be pressures.
                        if !(value >= 0 && value <= 1) { forceIsScaled = false }
                        p.append(value)
                    }
                case .ignored:
                    break
                }
            }

            if values == 0, position == count, points > 0 { break }   // after a trailing comma
            guard values >= channels.count else {
                throw Problem(kind: .invalid, detail: "point \(points + 1) has \(values) value\(values == 1 ? "" : "s"); "
                              + "the trace format has \(Self.describe(format))", offset: pointStart)
            }
            points += 1
            if points > limits.maxPointsPerStroke {
                throw Problem(kind: .tooLarge, detail: "more than \(limits.maxPointsPerStroke) points in one trace; "
                              + "at most \(limits.maxPointsPerStroke) are allowed in one stroke", offset: pointStart)
            }
            if points > remainingPoints {
                throw Problem(kind: .tooLarge, detail: "more than \(limits.maxTotalPoints) points in all; "
                              + "at most \(limits.maxTotalPoints) are allowed", offset: pointStart)
            }
            guard position < count else { break }
            position += 1   // the ','
        }
        return Stroke(x: x, y: y, t: hasTime ? t : nil, p: hasForce && forceIsScaled ? p : nil)
    }

    /// `T` `F` `*` `?`: booleans, inferred and unknown values.
    private static func isSymbol(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "T") || byte == UInt8(ascii: "F") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?")
    }

    /// "2 regular channels (X Y)" or "3 regular channels (X Y T) and 1 intermittent one".
    private static func describe(_ format: InkMLTraceFormat) -> String {
        let regular = "\(format.regular.count) regular channel\(format.regular.count == 1 ? "" : "s") (\(format.channelList))"
        guard format.intermittentCount > 0 else { return regular }
        return regular + " and \(format.intermittentCount) intermittent"
    }

    private static func describe(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
        guard offset < text.count else { return "the end of the trace" }
        let byte = text[offset]
        if byte > 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return byte < 0x80 ? "a control character" : "a non-ASCII character"
    }

    /// `3`, `0.5`, `1e+20`: integral values without a fraction.
    static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), number.magnitude < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}
