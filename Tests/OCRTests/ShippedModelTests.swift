import Foundation
import Ink
import Testing
@testable import OCR

/// The pen-ink model shipped in `Models/ink.traineddata`, loaded and used the way the service
/// does (catalog with the models directory, worker pool, full pipeline).
@Suite(.serialized) struct ShippedModelTests {
    /// `Models/` at the package root.
    static var modelsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Models").path
    }

    static func recognize(_ samples: [CorpusSample], language: String, charset: CharacterHint? = nil) throws -> [String] {
        let catalog = TessdataCatalog(extraDirectories: [modelsDirectory])
        let pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, queueDepth: samples.count + 1,
                                                                     defaultLanguage: language, catalog: catalog))
        defer { pool.shutdown() }
        let recognizer = InkRecognizer(pool: pool)
        let results = ResultList(count: samples.count)
        let group = DispatchGroup()
        for (index, sample) in samples.enumerated() {
            let strokes = RecognitionImagingTests.strokes(sample)
            group.enter()
            // All samples are queued at once and a deadline counts from submission: give the
            // last one the whole run's time, so a busy machine cannot turn readings into "".
            try recognizer.recognize(RecognitionRequest(strokes: strokes, language: language, charset: charset),
                                     deadlineMilliseconds: 600_000) { result in
                results.set(index, (try? result.get())?.text ?? "")
                group.leave()
            }
        }
        group.wait()
        return results.values
    }

    /// Character error rate: edit distance over truth length, whitespace collapsed (as
    /// `tools/eval.py` scores it).
    static func characterErrorRate(truths: [String], readings: [String]) -> Double {
        let normalize = { (text: String) in Array(text.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
        var distance = 0, length = 0
        for (truth, reading) in zip(truths, readings) {
            let a = normalize(truth)
            distance += RecognitionVocabulary.editDistance(a, normalize(reading), choices: nil)
            length += a.count
        }
        return Double(distance) / Double(max(length, 1))
    }

    @Test func theModelIsInstalledAsInk() {
        #expect(FileManager.default.fileExists(atPath: Self.modelsDirectory + "/ink.traineddata"))
        #expect(TessdataCatalog(extraDirectories: [Self.modelsDirectory]).languages.contains("ink"))
    }

    /// Hand-printed synthetic notes: the model was tuned for this kind of ink, so it must read
    /// it nearly perfectly (the acceptance target over the whole file is 2 %; 60 samples leave
    /// room for a few unlucky ones) and no worse than stock `eng`.
    @Test func readsPrintedInk() throws {
        let samples = Array(try Corpus.samples("synthetic/print.jsonl").prefix(60))
        let truths = samples.map(\.text)
        let ink = Self.characterErrorRate(truths: truths, readings: try Self.recognize(samples, language: "ink"))
        let eng = Self.characterErrorRate(truths: truths, readings: try Self.recognize(samples, language: "eng"))
        #expect(ink <= 0.05)
        #expect(ink <= eng)
    }

    /// Connected script: harder (the acceptance target over the whole file is 12 %), and
    /// where stock `eng` is clearly weaker.
    @Test func readsScriptInk() throws {
        let samples = Array(try Corpus.samples("synthetic/script.jsonl").prefix(60))
        let truths = samples.map(\.text)
        let ink = Self.characterErrorRate(truths: truths, readings: try Self.recognize(samples, language: "ink"))
        let eng = Self.characterErrorRate(truths: truths, readings: try Self.recognize(samples, language: "eng"))
        #expect(ink <= 0.18)
        #expect(ink < eng)
    }
}

/// Results written by worker threads, each slot once, read after the group wait.
private final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String]

    init(count: Int) { storage = Array(repeating: "", count: count) }

    func set(_ index: Int, _ value: String) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
