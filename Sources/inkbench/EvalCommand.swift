import Foundation
import Ink
import JSONKit
import OCR
import ToolSupport

/// `inkbench eval`: the recognition pipeline in-process on corpus files, scored like
/// `tools/eval.py` (CER over whitespace-collapsed text, exact matches). For tuning on training
/// and generated ink without HTTP in the way.
enum EvalCommand {
    static let usage = """
        inkbench eval [options] FILE.jsonl...
          --workers N          OCR workers (default 2)
          --limit N            first N samples of each file
          --charset C          text | digits | number
          --quality Q          fast | auto | best (default fast; the service's default is auto)
          --reread-below C     under auto, read a line of text read as one word again below this confidence (default 0.4)
          --line-reread-below C      the same for each word of a line of several words, read alone (default 0)
          --number-reread-below C   the same under the number hint (default 0.9; digits: never)
          --height PX --pen RATIO --pad RATIO   the fast rendering
          --no-dictionary      handles without Tesseract's word list
          --set NAME=VALUE,... further Tesseract variables at handle creation
          --no-repair          draw pen jumps inside strokes as they are
          --no-cleanup         keep marks without strokes and dash variants
          --no-hint-models     read a hint with the language's own model (not ink-number for number)
          --no-rotation --max-rotation DEG   line normalization
          --slant | --no-slant slant correction for every hint (default: numeric hints only)
          --glyph-strokes N    most strokes of a lone glyph
          --psm 7|8|13         Tesseract mode for lines under every hint
                               (default: 13 for text, 7 under digits/number)
          --glyph-aspect A     single-character mode up to this aspect (0 turns it off)
          --vocab MODE         truth: each sample's own words plus distractors;
                               distractors: distractors only (the truth is never offered)
          --vocab-size N       distractor words per sample (default 50)
          --vocab-file FILE    per-sample vocabularies: JSON lines {"id": ..., "words": [...]}
          --vocab-low-confidence C --vocab-max-distance R   vocabulary rules (VocabularyOptions)
          --show-errors N      worst samples per file
          --out FILE           per-sample results as JSON lines (text, confidence, ms of render and OCR, candidates)
        """

    static let valued: Set<String> = ["workers", "limit", "charset", "quality", "height", "pen", "pad", "glyph-aspect",
                                      "vocab", "vocab-size", "vocab-file", "show-errors", "out", "lang", "psm", "set", "max-rotation", "body", "baseline", "glyph-strokes", "vocab-low-confidence", "vocab-max-distance", "reread-below", "line-reread-below", "number-reread-below"]

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: valued)
        guard !args.positionals.isEmpty else { throw ToolError(usage) }
        var options = RecognitionOptions()
        options.render = RenderVariant(inkHeight: try args.double("height", default: options.render.inkHeight),
                                       penWidthRatio: try args.double("pen", default: options.render.penWidthRatio),
                                       paddingRatio: try args.double("pad", default: options.render.paddingRatio),
                                       bodyRatio: args.string("body").flatMap(Double.init),
                                       baselineRatio: try args.double("baseline", default: 0.75))
        switch args.string("psm") {
        case nil: break
        case "7": (options.textLineMode, options.numericLineMode) = (.singleLine, .singleLine)
        case "8": (options.textLineMode, options.numericLineMode) = (.singleWord, .singleWord)
        case "13": (options.textLineMode, options.numericLineMode) = (.rawLine, .rawLine)
        case let other?: throw ToolError("--psm \(other): expected 7, 8 or 13")
        }
        if args.has("slant") { (options.textCorrectsSlant, options.numericCorrectsSlant) = (true, true) }
        if args.has("no-slant") { (options.textCorrectsSlant, options.numericCorrectsSlant) = (false, false) }
        options.singleGlyphMaxStrokes = try args.int("glyph-strokes", default: options.singleGlyphMaxStrokes)
        options.vocabulary.lowConfidence = try args.double("vocab-low-confidence", default: options.vocabulary.lowConfidence)
        options.vocabulary.maxRelativeDistance = try args.double("vocab-max-distance", default: options.vocabulary.maxRelativeDistance)
        options.textRereadBelow = try args.double("reread-below", default: options.textRereadBelow)
        options.lineRereadBelow = try args.double("line-reread-below", default: options.lineRereadBelow)
        options.numberRereadBelow = try args.double("number-reread-below", default: options.numberRereadBelow)
        options.cleansMarks = !args.has("no-cleanup")
        options.usesHintModels = !args.has("no-hint-models")
        options.repairsStrokes = !args.has("no-repair")
        options.singleGlyphMaxAspect = try args.double("glyph-aspect", default: options.singleGlyphMaxAspect)
        var charset: CharacterHint?
        if let name = args.string("charset") {
            guard let hint = CharacterHint(rawValue: name) else { throw ToolError("unknown charset \(name)") }
            charset = hint
        }
        var quality = RecognitionRequest.Quality.fast
        if let name = args.string("quality") {
            guard let value = RecognitionRequest.Quality(rawValue: name) else { throw ToolError("unknown quality \(name)") }
            quality = value
        }
        let vocabularyMode = args.string("vocab")
        let vocabularyFile = try args.string("vocab-file").map(Vocabularies.load)
        let vocabularySize = try args.int("vocab-size", default: 50)
        let workers = try args.int("workers", default: 2)
        let language = args.string("lang") ?? "eng"

        let pool: OCRWorkerPool
        do {
            var settings = TesseractSettings()
            settings.useDictionary = !args.has("no-dictionary")
            for assignment in (args.string("set") ?? "").split(separator: ",") {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw ToolError("--set expects name=value[,name=value]") }
                settings.extraVariables[parts[0]] = parts[1]
            }
            pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: workers, queueDepth: 100_000, settings: settings))
        } catch {
            throw ToolError("OCR pool: \(error)")
        }
        defer { pool.shutdown() }
        var renderOptions = RenderOptions()
        renderOptions.correctsBaseline = !args.has("no-rotation")
        renderOptions.maxRotationDegrees = try args.double("max-rotation", default: renderOptions.maxRotationDegrees)
        let recognizer = InkRecognizer(pool: pool, imager: LineImager(options: renderOptions), options: options)
        var output = ""
        var totals = Score()
        for path in args.positionals {
            let samples = try Corpus.load(path, limit: try args.int("limit", default: Int.max))
            let vocabularies = vocabularyMode.map { Vocabularies.make(for: samples, mode: $0, size: vocabularySize) }
            let requests = samples.enumerated().map { index, sample in
                RecognitionRequest(strokes: sample.strokes, language: language, charset: charset,
                                   words: vocabularies?[index] ?? vocabularyFile?[sample.id] ?? [], quality: quality)
            }
            let clock = ContinuousClock()
            let start = clock.now
            let results = try recognizeAll(requests, with: recognizer)
            let wall = (clock.now - start).milliseconds
            var score = Score()
            var rows: [(distance: Int, id: String, truth: String, got: String)] = []
            for (sample, result) in zip(samples, results) {
                let got = (try? result.get())?.text ?? ""
                let distance = score.add(truth: sample.text, got: got)
                totals.add(truth: sample.text, got: got)
                rows.append((distance, sample.id, sample.text, got))
                output += jsonLine(sample: sample, result: result)
            }
            let name = (path as NSString).lastPathComponent
            print(score.row(name) + "  wall=\(Int(wall))ms (\(Statistics.format3(wall / Double(max(samples.count, 1))))/sample)")
            let worst = try args.int("show-errors", default: 0)
            for row in rows.sorted(by: { $0.distance > $1.distance }).prefix(worst) where row.distance > 0 {
                print("    \(row.id): truth=\(debug(row.truth)) got=\(debug(row.got))")
            }
        }
        if args.positionals.count > 1 { print(totals.row("TOTAL")) }
        if let path = args.string("out") {
            guard FileManager.default.createFile(atPath: path, contents: Data(output.utf8)) else { throw ToolError("cannot write \(path)") }
        }
    }

    /// Runs every request on the pool and waits for all of them.
    static func recognizeAll(_ requests: [RecognitionRequest], with recognizer: InkRecognizer) throws(ToolError) -> [Result<Recognition, OCRError>] {
        let results = ResultBox(count: requests.count)
        let group = DispatchGroup()
        for (index, request) in requests.enumerated() {
            group.enter()
            do {
                try recognizer.recognize(request, deadlineMilliseconds: 60_000) { result in
                    results.set(index, result)
                    group.leave()
                }
            } catch {
                throw ToolError("submit: \(error)")
            }
        }
        group.wait()
        return results.values
    }

    static func jsonLine(sample: Sample, result: Result<Recognition, OCRError>) -> String {
        let recognition = try? result.get()
        let candidates = (recognition?.candidates ?? []).map { "{\"text\":\(quoted($0.text)),\"confidence\":\($0.confidence)}" }
        return "{\"id\":\(quoted(sample.id)),\"truth\":\(quoted(sample.text)),\"text\":\(quoted(recognition?.text ?? "")),"
            + "\"confidence\":\(recognition?.confidence ?? 0),\"ms\":\((recognition?.timings.renderMs ?? 0) + (recognition?.timings.ocrMs ?? 0)),"
            + "\"candidates\":[\(candidates.joined(separator: ","))]}\n"
    }

    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func debug(_ text: String) -> String { "'" + text.replacingOccurrences(of: "\n", with: "\\n") + "'" }
}

/// Running CER and exact-match counts.
struct Score {
    var samples = 0
    var exact = 0
    var distance = 0
    var caseInsensitiveDistance = 0
    var truthLength = 0

    @discardableResult
    mutating func add(truth: String, got: String) -> Int {
        let t = Statistics.normalize(truth), g = Statistics.normalize(got)
        let d = Statistics.editDistance(t, g)
        samples += 1
        distance += d
        caseInsensitiveDistance += Statistics.editDistance(Statistics.normalize(truth.lowercased()), Statistics.normalize(got.lowercased()))
        truthLength += t.count
        if t == g { exact += 1 }
        return d
    }

    func row(_ name: String) -> String {
        let cer = truthLength > 0 ? Double(distance) / Double(truthLength) : 0
        let ci = truthLength > 0 ? Double(caseInsensitiveDistance) / Double(truthLength) : 0
        let match = samples > 0 ? Double(exact) / Double(samples) : 0
        return name.padding(toLength: 28, withPad: " ", startingAt: 0)
            + " n=\(samples)  CER=\(String(format: "%6.2f%%", cer * 100)) CER(ci)=\(String(format: "%6.2f%%", ci * 100))"
            + " exact=\(String(format: "%6.2f%%", match * 100))"
    }
}

/// Results written by worker threads, read after all of them finished.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<Recognition, OCRError>]

    init(count: Int) {
        storage = Array(repeating: .failure(.shuttingDown), count: count)
    }

    func set(_ index: Int, _ result: Result<Recognition, OCRError>) {
        lock.lock()
        storage[index] = result
        lock.unlock()
    }

    var values: [Result<Recognition, OCRError>] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Client vocabularies built from a corpus, to measure `hints.words` without touching test data.
enum Vocabularies {
    /// Vocabularies by sample id from JSON lines `{"id": ..., "words": [...]}`.
    static func load(_ path: String) throws(ToolError) -> [String: [String]] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolError("cannot read \(path)") }
        var vocabularies: [String: [String]] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let value = try? JSONReader.parse(Array(line)), let id = value["id"]?.stringValue,
                  let words = value["words"]?.arrayValue else { throw ToolError("\(path): expected {\"id\", \"words\"} per line") }
            vocabularies[id] = words.compactMap(\.stringValue)
        }
        return vocabularies
    }

    /// For each sample: `size` words of other samples (deterministic), plus, in `truth` mode,
    /// the sample's own words.
    static func make(for samples: [Sample], mode: String, size: Int) -> [[String]] {
        var pool: [String] = []
        var seen = Set<String>()
        for sample in samples {
            for word in sample.text.split(whereSeparator: { $0.isWhitespace }).map(String.init) where seen.insert(word).inserted {
                pool.append(word)
            }
        }
        var generator = SplitMix64(seed: 0x5EED)
        return samples.map { sample in
            let own = sample.text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            let ownSet = Set(own.map { $0.lowercased() })
            var words: [String] = []
            var attempts = 0
            while words.count < size, attempts < size * 20, !pool.isEmpty {
                attempts += 1
                let word = pool[Int(generator.next() % UInt64(pool.count))]
                if !ownSet.contains(word.lowercased()), !words.contains(word) { words.append(word) }
            }
            if mode == "truth" {
                for word in own { words.insert(word, at: Int(generator.next() % UInt64(words.count + 1))) }
            }
            return words
        }
    }
}
