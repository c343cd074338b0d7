import ToolSupport
import Foundation
import Ink
import JSONKit
import OCR

/// `inkbench micro`: the two CPU steps before Tesseract, timed in-process.
/// - decode: a ~50 KB ink document through the service's JSON reader and ink decoder;
/// - raster: 20 strokes of 100 points drawn as one normalised line image.
enum MicroCommand {
    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["iterations", "bytes"])
        let iterations = try args.int("iterations", default: 500)
        let document = Array(inkDocument(approximateBytes: try args.int("bytes", default: 50_000)).utf8)
        let decoder = InkDecoder()
        var strokeCount = 0
        let decode = try time(iterations) { () throws(ToolError) in
            do {
                let value = try JSONReader.parse(document)
                guard let strokes = value["strokes"] else { throw ToolError("no strokes") }
                strokeCount = try decoder.decode(strokes, at: .root.appending("strokes")).count
            } catch let error as ToolError {
                throw error
            } catch {
                throw ToolError("decode: \(error)")
            }
        }
        print("decode      \(document.count) bytes, \(strokeCount) strokes: p50 \(Statistics.format3(decode.p50)) ms  p95 \(Statistics.format3(decode.p95)) ms")

        let strokes = lineOfStrokes(count: 20, points: 100)
        let imager = LineImager()
        let variant = RenderVariant()
        let images = imager.render(strokes, variant: variant)
        guard let first = images.first else { throw ToolError("nothing rendered") }
        let transform = first.boardToImage
        let pen = variant.penWidthRatio * variant.inkHeight
        let raster = try time(iterations) { () throws(ToolError) in
            var image = GrayImage(width: first.image.width, height: first.image.height)
            Rasterizer(penWidth: pen).draw(strokes, transform: transform, into: &image)
            if image.pixels.isEmpty { throw ToolError("empty image") }
        }
        print("rasterize   20 strokes x 100 points into \(first.image.width)x\(first.image.height): p50 \(Statistics.format3(raster.p50)) ms  p95 \(Statistics.format3(raster.p95)) ms")
        let normalise = try time(iterations) { () throws(ToolError) in
            if imager.render(strokes, variant: variant).isEmpty { throw ToolError("nothing rendered") }
        }
        print("segment+normalise+rasterize (same ink): p50 \(Statistics.format3(normalise.p50)) ms  p95 \(Statistics.format3(normalise.p95)) ms")
        // The recogniser's preparation (stroke repair, the coarse-ink check, line finding) with
        // and without the coarse-ink check, on the same fine ink (which it leaves as it is).
        for smooths in [false, true] {
            let imaging = RecognitionImaging(options: RecognitionOptions(smoothsCoarseInk: smooths))
            let prepare = try time(iterations) { () throws(ToolError) in
                if imaging.prepare(strokes, hint: .text).lines.lines.isEmpty { throw ToolError("no lines") }
            }
            print("prepare, coarse-ink check \(smooths ? "on " : "off"): p50 \(Statistics.format3(prepare.p50)) ms  p95 \(Statistics.format3(prepare.p95)) ms")
        }
    }

    /// Runs `body` `iterations` times after a warm-up and returns p50 and p95 in milliseconds.
    static func time(_ iterations: Int, _ body: () throws(ToolError) -> Void) throws(ToolError) -> (p50: Double, p95: Double) {
        for _ in 0..<min(20, iterations) { try body() }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = clock.now
            try body()
            samples.append((clock.now - start).milliseconds)
        }
        return (Statistics.percentile(samples, 50), Statistics.percentile(samples, 95))
    }

    /// A request body of about `approximateBytes`: pen strokes in tablet units with times, as a
    /// tablet client sends them (coordinates with two decimals, integer milliseconds).
    static func inkDocument(approximateBytes: Int) -> String {
        var generator = SplitMix64(seed: 42)
        var strokes: [String] = []
        var size = 14
        var t = 0
        var x = 10_000.0
        while size < approximateBytes {
            var xs: [String] = [], ys: [String] = [], ts: [String] = []
            let y0 = 20_000.0 + Double(generator.next() % 400)
            for step in 0..<40 {
                x += Double(generator.next() % 300) / 10
                xs.append(String(format: "%.2f", x))
                ys.append(String(format: "%.2f", y0 + 600 * sin(Double(step) / 4)))
                t += 8
                ts.append(String(t))
            }
            let stroke = "{\"x\":[\(xs.joined(separator: ","))],\"y\":[\(ys.joined(separator: ","))],\"t\":[\(ts.joined(separator: ","))]}"
            size += stroke.utf8.count + 1
            strokes.append(stroke)
        }
        return "{\"strokes\":[\(strokes.joined(separator: ","))]}"
    }

    /// `count` letter-like strokes of `points` points each, side by side on one line.
    static func lineOfStrokes(count: Int, points: Int) -> [Stroke] {
        (0..<count).map { index in
            let left = Double(index) * 60
            let xs = (0..<points).map { left + 40 * Double($0) / Double(points) + 10 * sin(Double($0) / 5) }
            let ys = (0..<points).map { 100 + 50 * sin(Double($0) * .pi / Double(points) * 3) }
            return Stroke(x: xs, y: ys)
        }
    }
}
