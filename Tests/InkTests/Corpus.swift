import Foundation
import Ink
import JSONKit

/// One sample of the ink fixtures (`Tests/Fixtures/ink`).
struct CorpusSample {
    let id: String
    let text: String
    let strokes: [Stroke]
    /// The number of lines in the truth (`\n`-separated).
    var lineCount: Int { text.split(separator: "\n", omittingEmptySubsequences: false).count }
}

/// Reads the repository's ink fixtures: `Tests/Fixtures/ink` (made by `make_ink.py`) and
/// `Tests/Fixtures/hangul` (made by `training/kor/make_eval.py`).
enum Corpus {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The lines of one corpus file as raw bytes, e.g. `print.jsonl`.
    static func rawLines(_ file: String, folder: String = "ink") -> [[UInt8]] {
        let url = fixtures.appendingPathComponent(folder).appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).map { Array($0) }
    }

    /// Parsed samples of one fixture file (empty if it is missing).
    static func samples(_ file: String, folder: String = "ink") throws -> [CorpusSample] {
        try rawLines(file, folder: folder).map { line in
            let document = try JSONReader.parse(line)
            let strokes = try InkDecoder().decode(document["strokes"] ?? .null, at: .root.appending("strokes"))
            return CorpusSample(id: document["id"]?.stringValue ?? "", text: document["text"]?.stringValue ?? "", strokes: strokes)
        }
    }
}
