import ToolSupport
import Foundation
import Geometry
import Ink
import OCR

/// `inkbench trace`: what Tesseract reports symbol by symbol for chosen samples: the
/// rendered line, each word and symbol with its box, confidence and ranked choices, and how
/// much ink lies under each symbol box.
enum TraceCommand {
    static let usage = "inkbench trace FILE.jsonl ID... [--psm 7|8|13] [--height PX --pen RATIO --pad RATIO]"

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["psm", "height", "pen", "pad"])
        guard args.positionals.count >= 2 else { throw ToolError(usage) }
        let ids = Set(args.positionals.dropFirst())
        let defaults = RenderVariant()
        let variant = RenderVariant(inkHeight: try args.double("height", default: defaults.inkHeight),
                                    penWidthRatio: try args.double("pen", default: defaults.penWidthRatio),
                                    paddingRatio: try args.double("pad", default: defaults.paddingRatio))
        let mode: PageSegmentationMode = switch args.string("psm") {
        case "7": .singleLine
        case "8": .singleWord
        default: .rawLine
        }
        let handle: TesseractHandle
        do {
            handle = try TesseractHandle(tessdataPath: TessdataCatalog.debianTessdataDirectory, language: "eng")
        } catch {
            throw ToolError("Tesseract: \(error)")
        }
        for sample in try Corpus.load(args.positionals[0]) where ids.contains(sample.id) {
            print("\(sample.id) truth=\(EvalCommand.debug(sample.text))")
            for line in LineImager().render(sample.strokes, variant: variant) {
                let page: TesseractPage
                do {
                    page = try handle.recognize(image: line.image, pageSegmentationMode: mode, deadline: 10_000)
                } catch {
                    throw ToolError("recognize: \(error)")
                }
                print("  line \(line.image.width)x\(line.image.height) strokes=\(line.strokeIndexes.count) text=\(EvalCommand.debug(page.text))")
                for word in page.words {
                    print("    word '\(word.text)' conf=\(Statistics.format3(word.confidence)) box=\(pixels(word.box))")
                    for symbol in word.symbols {
                        let choices = symbol.choices.map { "\($0.text):\(Statistics.format3($0.confidence))" }.joined(separator: " ")
                        let ink = inkPixels(line.image, symbol.box)
                        print("      '\(symbol.text)' conf=\(Statistics.format3(symbol.confidence)) box=\(pixels(symbol.box)) ink=\(ink) [\(choices)]")
                    }
                }
            }
        }
    }

    /// A box of image pixels as `left,top-right,bottom`.
    static func pixels(_ box: Rect) -> String {
        "\(Int(box.minX)),\(Int(box.minY))-\(Int(box.maxX)),\(Int(box.maxY))"
    }

    static func inkPixels(_ image: GrayImage, _ box: Rect) -> Int {
        let left = Int(box.minX), top = Int(box.minY), right = Int(box.maxX), bottom = Int(box.maxY)
        var count = 0
        for y in max(0, top)..<min(image.height, max(bottom, top)) {
            for x in max(0, left)..<min(image.width, max(right, left)) where image.pixels[y * image.width + x] < 128 {
                count += 1
            }
        }
        return count
    }
}
