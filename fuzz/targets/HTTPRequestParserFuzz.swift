// libFuzzer entry for the HTTP/1.1 request parser, compiled together with the parser's sources
// (see scripts/fuzz.sh). Besides looking for crashes, it checks one property: feeding the same
// bytes in arbitrary pieces yields the same requests as feeding them at once, which is how a
// socket delivers them.

/// Small limits so that every limit check is reachable with fuzzer-sized inputs.
private let fuzzLimits: HTTPParserLimits = {
    var limits = HTTPParserLimits()
    limits.maxRequestLineBytes = 96
    limits.maxHeaderBytes = 512
    limits.maxHeaderCount = 8
    limits.maxBodyBytes = 1024
    limits.maxChunkLineBytes = 32
    limits.maxTrailerBytes = 128
    return limits
}()

/// What a parser made of a byte stream: the events in order and how it stopped.
private struct Outcome: Equatable {
    var events: [HTTPRequestParser.Event] = []
    var error: HTTPParseError?

    /// Limit errors may legitimately fire at a different moment when the bytes come in pieces
    /// (an unfinished head is refused as soon as it is certain to break a limit).
    var stoppedAtLimit: Bool {
        switch error?.kind {
        case .requestLineTooLong?, .headersTooLarge?, .contentTooLarge?: true
        default: false
        }
    }
}

/// Feeds `input` in pieces whose ends are `cuts` (ascending offsets), as a connection does:
/// the parser always sees every byte it has not consumed yet.
private func run(_ input: UnsafeBufferPointer<UInt8>, cuts: [Int]) -> Outcome {
    var parser = HTTPRequestParser(limits: fuzzLimits)
    var outcome = Outcome()
    var pending: [UInt8] = []
    var fed = 0
    for cut in cuts + [input.count] where cut > fed && cut <= input.count {
        pending.append(contentsOf: input[fed..<cut])
        fed = cut
        // Each call either consumes bytes or changes state; a stuck parser would spin here.
        var rounds = 0
        while true {
            rounds += 1
            if rounds > 4 * (input.count + 8) { fatalError("parser made no progress") }
            let result = pending.withUnsafeBytes { raw in
                Result { () throws(HTTPParseError) in try parser.parse(raw) }
            }
            switch result {
            case .failure(let error):
                outcome.error = error
                return outcome
            case .success(let (consumed, event)):
                precondition(consumed >= 0 && consumed <= pending.count, "consumed \(consumed) of \(pending.count)")
                pending.removeFirst(consumed)
                if case .needMore = event { break }
                outcome.events.append(event)
                if case .head = event, parser.expectsBody {
                    // Exercise the per-request limit the way a handler would.
                    do throws(HTTPParseError) {
                        try parser.setBodyLimit(fuzzLimits.maxBodyBytes / 2)
                    } catch {
                        outcome.error = error
                        return outcome
                    }
                }
                continue
            }
            break
        }
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    // The first byte seeds the cut points; the rest is the byte stream.
    let seed = UInt64(data[0])
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let whole = run(input, cuts: [])

    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var cuts: [Int] = []
    var offset = 0
    while offset < input.count {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        offset = min(offset + 1 + Int(state % 17), input.count)
        cuts.append(offset)
    }
    let pieces = run(input, cuts: cuts)
    let bytewise = run(input, cuts: Array(0..<input.count))

    for other in [pieces, bytewise] where !whole.stoppedAtLimit && !other.stoppedAtLimit {
        // Without limit errors, the split must not change what was parsed, nor whether it failed.
        if other.events != whole.events || (other.error == nil) != (whole.error == nil) {
            fatalError("split input parsed differently:\n whole: \(whole)\n split: \(other)")
        }
    }
    return 0
}
