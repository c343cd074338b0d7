import ToolSupport
import Foundation
import Ink
import OCR

/// `inkbench render`: the line images the pipeline would hand to Tesseract, as PGM files, to
/// look at (and to feed the `tesseract` command-line tool in the benchmark).
enum RenderCommand {
    static let usage = """
        inkbench render FILE.jsonl --out DIR [--limit N] [--height PX --pen RATIO --pad RATIO]
          writes DIR/<id>-<line>.pgm for each sample
        """

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["out", "limit", "height", "pen", "pad", "body", "baseline"])
        guard let path = args.positionals.first, let directory = args.string("out") else { throw ToolError(usage) }
        let defaults = RenderVariant()
        let variant = RenderVariant(inkHeight: try args.double("height", default: defaults.inkHeight),
                                    penWidthRatio: try args.double("pen", default: defaults.penWidthRatio),
                                    paddingRatio: try args.double("pad", default: defaults.paddingRatio),
                                    bodyRatio: args.string("body").flatMap(Double.init),
                                    baselineRatio: try args.double("baseline", default: 0.75))
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ToolError("cannot create \(directory): \(error)")
        }
        let imager = LineImager()
        for sample in try Corpus.load(path, limit: try args.int("limit", default: 20)) {
            for (index, line) in imager.render(sample.strokes, variant: variant).enumerated() {
                try PGM.write(line.image, to: "\(directory)/\(sample.id)-\(index).pgm")
            }
        }
    }
}

/// Binary PGM (P5): the simplest file Leptonica, and so the `tesseract` tool, reads.
enum PGM {
    static func write(_ image: GrayImage, to path: String) throws(ToolError) {
        var data = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.pixels)
        guard FileManager.default.createFile(atPath: path, contents: data) else { throw ToolError("cannot write \(path)") }
    }
}
