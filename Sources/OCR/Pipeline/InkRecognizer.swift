import Foundation
import Ink

/// The recognition pipeline: ink → lines → images → Tesseract on the worker pool → text with boxes
/// in board coordinates. All of it runs on an OCR worker thread.
public final class InkRecognizer: InkRecognizing {
    public let pool: OCRWorkerPool
    public let imager: LineImager

    public init(pool: OCRWorkerPool, imager: LineImager = LineImager()) {
        self.pool = pool
        self.imager = imager
    }

    public var languages: [String] { pool.languages }

    public func lineImages(for strokes: [Stroke]) -> [GrayImage] { imager.render(strokes).map(\.image) }

    public func recognize(_ request: RecognitionRequest, deadlineMilliseconds: Int,
                          completion: @escaping @Sendable (Result<Recognition, OCRError>) -> Void) throws(OCRError) {
        _ = try pool.configuration.catalog.directory(for: request.language)
        let imager = self.imager
        try pool.submit({ context throws(OCRError) in
            try Self.run(request, imager: imager, context: context, deadlineMilliseconds: deadlineMilliseconds)
        }, completion: completion)
    }

    static func run(_ request: RecognitionRequest, imager: LineImager, context: WorkerContext,
                    deadlineMilliseconds: Int) throws(OCRError) -> Recognition {
        let clock = ContinuousClock()
        let start = clock.now
        let lines = imager.render(request.strokes)
        let rendered = clock.now
        var results: [Recognition.Line] = []
        var lineCandidates: [[Recognition.Candidate]] = []
        for line in lines {
            let elapsed = Int((clock.now - start).milliseconds)
            let remaining = deadlineMilliseconds - elapsed
            guard remaining > 0 else { throw .deadlineExceeded(milliseconds: deadlineMilliseconds) }
            let page = try context.recognize(line.image, language: request.language, pageSegmentationMode: .singleLine,
                                             hint: request.charset ?? .text, deadline: remaining)
            let (recognized, candidates) = LineReading.assemble(page.page, line: line, strokes: request.strokes)
            if !recognized.text.isEmpty {
                results.append(recognized)
                lineCandidates.append(candidates)
            }
        }
        let finished = clock.now
        let text = results.map(\.text).joined(separator: "\n")
        let confidence = results.isEmpty ? 0 : results.map(\.confidence).reduce(0, +) / Double(results.count)
        return Recognition(text: text, confidence: confidence,
                           candidates: LineReading.combine(lineCandidates, text: text, confidence: confidence),
                           lines: results,
                           timings: Recognition.Timings(renderMs: (rendered - start).milliseconds,
                                                        ocrMs: (finished - rendered).milliseconds))
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
