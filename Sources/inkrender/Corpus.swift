import ToolSupport
import Foundation
import Ink
import JSONKit

/// One corpus sample: `{"id", "text", "strokes"}` from a JSON-lines file.
struct Sample {
    var id: String
    var text: String
    var strokes: [Stroke]
}

enum Corpus {
    /// Reads every line of a JSON-lines corpus with the service's own JSON reader and ink
    /// decoder, so training ink passes exactly the validation a request does. Ink the service
    /// would reject (e.g. time running backwards) is skipped and counted in `rejected`.
    static func load(_ path: String, limit: Int? = nil, rejected: inout Int) throws(ToolError) -> [Sample] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolError("cannot read \(path)") }
        var samples: [Sample] = []
        let decoder = InkDecoder(limits: InkLimits(maxStrokes: 100_000, maxPointsPerStroke: 1_000_000,
                                                   maxTotalPoints: 10_000_000))
        for (number, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            if let limit, samples.count >= limit { break }
            do {
                let value = try JSONReader.parse(Array(line))
                guard let id = value["id"]?.stringValue, let text = value["text"]?.stringValue,
                      let strokes = value["strokes"]
                else { throw ToolError("\(path):\(number + 1): needs id, text and strokes") }
                do {
                    samples.append(Sample(id: id, text: text, strokes: try decoder.decode(strokes, at: .root.appending("strokes"))))
                } catch {
                    rejected += 1
                }
            } catch let error as ToolError {
                throw error
            } catch {
                throw ToolError("\(path):\(number + 1): \(error)")
            }
        }
        return samples
    }
}
