import Foundation
import Geometry
import Ink
@testable import OCR

/// Runs the recognition pipeline on a real one-worker pool and waits for the answer.
final class PipelineHarness {
    let pool: OCRWorkerPool
    let recognizer: InkRecognizer

    init(options: RecognitionOptions = RecognitionOptions()) throws {
        pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, queueDepth: 16))
        recognizer = InkRecognizer(pool: pool, options: options)
    }

    deinit {
        pool.shutdown()
    }

    func recognize(_ strokes: [Stroke], charset: CharacterHint? = nil, words: [String] = [],
                   quality: RecognitionRequest.Quality = .fast, deadline: Int = 10_000) -> Result<Recognition, OCRError> {
        let request = RecognitionRequest(strokes: strokes, language: "eng", charset: charset, words: words, quality: quality)
        let box = ResultSlot()
        let done = DispatchSemaphore(value: 0)
        do {
            try recognizer.recognize(request, deadlineMilliseconds: deadline) { result in
                box.result = result
                done.signal()
            }
        } catch {
            return .failure(error)
        }
        done.wait()
        return box.result ?? .failure(.shuttingDown)
    }
}

/// Written once by a worker thread before the semaphore is signalled, read after the wait.
private final class ResultSlot: @unchecked Sendable {
    var result: Result<Recognition, OCRError>?
}

enum PipelineInk {
    /// A corpus sample as strokes.
    static func strokes(_ file: String, text: String) throws -> [Stroke] {
        try Corpus.sample(file, text: text).strokes.map { points in
            Stroke(x: points.map(\.x), y: points.map(\.y))
        }
    }

    /// The bounding box of all points of `strokes`, or of the given subset.
    static func bounds(_ strokes: [Stroke], _ indexes: [Int]? = nil) -> Rect? {
        (indexes ?? Array(strokes.indices)).map { strokes[$0] }.bounds
    }
}

extension Rect {
    /// `self` grown by `margin` on every side.
    func grown(by margin: Double) -> Rect {
        Rect(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }
}
