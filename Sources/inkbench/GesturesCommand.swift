import Foundation
import GestureSamples
import Ink
import JSONKit
import TextLayout
import ToolSupport

/// `inkbench gestures`: the gesture classifier's two measures (`bench/gestures.sh`).
/// - every sample of the corpus files given (JSON lines, `.gz` read through `gzip -dc`), drawn
///   over a field of other text, must be taken as writing: false gestures are counted per file;
/// - `--generated N` gestures drawn from `--seed` must be taken as the right gesture deleting the
///   right words.
enum GesturesCommand {
    static let usage = """
        usage: inkbench gestures [--generated N] [--seed S] [--show K] [--ink-scale F] CORPUS.jsonl[.gz] ...
          --ink-scale F  writing drawn F times the size of the field's text (default 1)
        """

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["generated", "seed", "show", "ink-scale"])
        let inkScale = try args.double("ink-scale", default: 1)
        let generated = try args.int("generated", default: 10_000)
        let seed = UInt64(try args.int("seed", default: 1))
        let show = try args.int("show", default: 10)
        let measurer: TextMeasurer
        do { measurer = TextMeasurer(library: try FontLibrary()) } catch { throw ToolError("fonts: \(error)") }
        let evaluation = GestureEvaluation(measurer: measurer)
        var totalSamples = 0, totalFalse = 0
        for path in args.positionals {
            var random = SeededRandom(seed: seed)
            var samples = 0, singleStroke = 0, gestures: [InkGesture: Int] = [:], shown: [String] = []
            let start = Date()
            let skipped = try forEachSample(path) { id, text, strokes throws(ToolError) in
                samples += 1
                if strokes.count == 1 { singleStroke += 1 }
                let gesture: InkGesture?
                do { gesture = try evaluation.classifyWriting(strokes, text: text, inkScale: inkScale, random: &random) } catch {
                    throw ToolError("\(path) \(id): \(error)")
                }
                if let gesture {
                    gestures[gesture, default: 0] += 1
                    if shown.count < show { shown.append("  \(id) \(gesture.rawValue) \"\(text)\"") }
                }
            }
            let falseCount = gestures.values.reduce(0, +)
            totalSamples += samples
            totalFalse += falseCount
            print("\(path): \(samples) samples (\(singleStroke) of one stroke; \(skipped) the service would refuse skipped), \(falseCount) false gestures (scratch-out \(gestures[.scratchOut] ?? 0), strike-through \(gestures[.strikeThrough] ?? 0)) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
            for line in shown { print(line) }
        }
        if !args.positionals.isEmpty {
            print("writing: \(totalSamples) samples, \(totalFalse) false gestures")
        }
        if generated > 0 {
            let (scratch, strike) = try runGenerated(evaluation, count: generated, seed: seed)
            print("generated scratch-outs (seed \(seed)): \(scratch)")
            for failure in scratch.failures.prefix(show) { print("  " + failure) }
            print("generated strike-throughs (seed \(seed)): \(strike)")
            for failure in strike.failures.prefix(show) { print("  " + failure) }
            let right = scratch.samples - scratch.wrong + strike.samples - strike.wrong
            print("generated gestures: \(right) / \(scratch.samples + strike.samples) right (\(String(format: "%.2f", 100 * Double(right) / Double(max(1, scratch.samples + strike.samples)))) %)")
        }
    }

    private static func runGenerated(_ evaluation: GestureEvaluation, count: Int, seed: UInt64) throws(ToolError)
        -> (GestureEvaluation.Counts, GestureEvaluation.Counts) {
        do { return try evaluation.generatedGestures(count: count, seed: seed) } catch { throw ToolError("generated: \(error)") }
    }

    /// Calls `body` with every sample of a JSON-lines file, read line by line (a `.gz` through
    /// `gzip -dc`); answers how many samples were skipped because the service's ink decoder
    /// refuses them (no point, a stroke of mismatched x and y).
    private static func forEachSample(_ path: String,
                                      _ body: (String, String, [Stroke]) throws(ToolError) -> Void) throws(ToolError) -> Int {
        var skipped = 0
        let handle: FileHandle
        var process: Process?
        if path.hasSuffix(".gz") {
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gzip.arguments = ["gzip", "-dc", path]
            let pipe = Pipe()
            gzip.standardOutput = pipe
            do { try gzip.run() } catch { throw ToolError("gzip \(path): \(error)") }
            process = gzip
            handle = pipe.fileHandleForReading
        } else {
            guard let file = FileHandle(forReadingAtPath: path) else { throw ToolError("cannot read \(path)") }
            handle = file
        }
        let decoder = InkDecoder(limits: InkLimits(maxStrokes: 100_000, maxPointsPerStroke: 1_000_000, maxTotalPoints: 10_000_000))
        var pending: [UInt8] = []
        var lineNumber = 0
        func handleLine(_ line: ArraySlice<UInt8>) throws(ToolError) {
            lineNumber += 1
            guard !line.isEmpty else { return }
            let id: String, text: String, strokes: [Stroke]
            do {
                let value = try JSONReader.parse(Array(line))
                guard let sampleID = value["id"]?.stringValue, let label = value["text"]?.stringValue,
                      let ink = value["strokes"] else { throw ToolError("\(path):\(lineNumber): needs id, text and strokes") }
                (id, text, strokes) = (sampleID, label, try decoder.decode(ink, at: .root.appending("strokes")))
            } catch let error as ToolError {
                throw error
            } catch {
                // A sample the service itself would refuse is no writing it reads.
                skipped += 1
                return
            }
            try body(id, text, strokes)
        }
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try handleLine(pending[start..<newline])
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        try handleLine(pending[...])
        process?.waitUntilExit()
        return skipped
    }
}
