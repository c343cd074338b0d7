import Foundation
import Ink
@testable import OCR

enum Fixtures {
    static let tessdata = TessdataCatalog.debianTessdataDirectory

    /// A corpus sample drawn as a line image with ~40 px ink height.
    static func image(_ text: String, from file: String = "print.jsonl", inkHeight: Double = 40) throws -> GrayImage {
        TestRasterizer.draw(try Corpus.sample(file, text: text).strokes, inkHeight: inkHeight)
    }

    /// Images stacked vertically with a gap: a block of text lines.
    static func stacked(_ images: [GrayImage], gap: Int = 16) -> GrayImage {
        let width = images.map(\.width).max() ?? 1
        let height = images.reduce(0) { $0 + $1.height + gap }
        var result = GrayImage(width: width, height: max(height, 1))
        var top = 0
        for image in images {
            for y in 0..<image.height {
                let source = y * image.width
                let destination = (top + y) * width
                result.pixels.replaceSubrange(destination..<(destination + image.width),
                                              with: image.pixels[source..<(source + image.width)])
            }
            top += image.height + gap
        }
        return result
    }

    static func engHandle() throws -> TesseractHandle {
        try TesseractHandle(tessdataPath: tessdata, language: "eng")
    }

    /// The directory of this test process's directories, removed when the process exits (a
    /// test that fails half-way leaves nothing behind either).
    static let temporaryRoot: URL = {
        atexit { try? FileManager.default.removeItem(at: Fixtures.temporaryRoot) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("ocr-tests-\(UUID().uuidString)")
    }()

    /// A fresh empty directory under `temporaryRoot`.
    static func temporaryDirectory() throws -> URL {
        let url = temporaryRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Polls `condition` every millisecond for up to `seconds`; true once it holds.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}
