import ToolSupport
import Foundation
import Ink
import JSONKit
import OCR

/// `inkbench bare`: for one ink (a request body), the line image the pipeline renders, timed
/// through a bare in-process Tesseract call (`TesseractHandle.recognize` on the same image, in
/// the mode the pipeline reads text lines in) and through the whole pipeline on a one-worker pool.
enum BareCommand {
    static let usage = """
        inkbench bare --ink BODY.json [--iterations N] [--pgm OUT.pgm]
          BODY.json is a POST /v1/recognize body; its first line is used.
        """

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["ink", "iterations", "pgm"])
        guard let path = args.string("ink") else { throw ToolError(usage) }
        let iterations = try args.int("iterations", default: 200)
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolError("cannot read \(path)") }
        let strokes: [Stroke]
        do {
            let value = try JSONReader.parse(Array(data))
            guard let list = value["strokes"] else { throw ToolError("\(path) has no strokes") }
            strokes = try InkDecoder().decode(list, at: .root.appending("strokes"))
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError("\(path): \(error)")
        }
        let pool: OCRWorkerPool
        do {
            pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1))
        } catch {
            throw ToolError("OCR pool: \(error)")
        }
        defer { pool.shutdown() }
        let recognizer = InkRecognizer(pool: pool)
        // Exactly the image the pipeline reads (words drawn wider, as the service draws them).
        guard let image = recognizer.lineImages(for: strokes).first else { throw ToolError("no ink") }
        if let pgm = args.string("pgm") { try PGM.write(image, to: pgm) }

        let handle: TesseractHandle
        do {
            handle = try TesseractHandle(tessdataPath: TessdataCatalog.debianTessdataDirectory, language: "eng")
        } catch {
            throw ToolError("Tesseract: \(error)")
        }
        let mode = RecognitionOptions().textLineMode
        var text = ""
        let bare = try MicroCommand.time(iterations) { () throws(ToolError) in
            do {
                text = try handle.recognize(image: image, pageSegmentationMode: mode, deadline: 10_000).text
            } catch {
                throw ToolError("recognize: \(error)")
            }
        }
        print("bare Tesseract call  \(image.width)x\(image.height) \(mode) '\(text)': p50 \(Statistics.format3(bare.p50)) ms  p95 \(Statistics.format3(bare.p95)) ms")

        let render = try MicroCommand.time(iterations) { () throws(ToolError) in
            if recognizer.lineImages(for: strokes).isEmpty { throw ToolError("no ink") }
        }
        print("render (prepare, segment, normalise, rasterize): p50 \(Statistics.format3(render.p50)) ms")
        let request = RecognitionRequest(strokes: strokes, language: "eng", quality: .fast)
        let pipeline = try MicroCommand.time(iterations) { () throws(ToolError) in
            let result = try EvalCommand.recognizeAll([request], with: recognizer)
            text = (try? result[0].get())?.text ?? ""
        }
        print("in-process pipeline  '\(text)': p50 \(Statistics.format3(pipeline.p50)) ms  p95 \(Statistics.format3(pipeline.p95)) ms")
    }
}
