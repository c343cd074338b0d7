import Foundation
import Ink
import JSONKit

/// One sample of the shared handwriting corpus.
struct CorpusSample {
    let id: String
    let text: String
    let strokes: [Stroke]
    /// The number of lines in the truth (`\n`-separated).
    var lineCount: Int { text.split(separator: "\n", omittingEmptySubsequences: false).count }
}

/// Reads the shared corpus, which lives next to the package root (`../shared`). Walks up from
/// this file so the tests work from a checkout at any depth, and returns `nil` if it is absent.
enum Corpus {
    static let directory: URL? = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 {
            url = url.deletingLastPathComponent()
            let candidate = url.appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// The lines of one corpus file as raw bytes, e.g. `synthetic/print.jsonl`.
    static func rawLines(_ file: String) -> [[UInt8]] {
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent(file)) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).map { Array($0) }
    }

    /// Parsed samples of one corpus file (empty if the corpus is not available).
    static func samples(_ file: String) throws -> [CorpusSample] {
        try rawLines(file).map { line in
            let document = try JSONReader.parse(line)
            let strokes = try InkDecoder().decode(document["strokes"] ?? .null, at: .root.appending("strokes"))
            return CorpusSample(id: document["id"]?.stringValue ?? "", text: document["text"]?.stringValue ?? "", strokes: strokes)
        }
    }
}
