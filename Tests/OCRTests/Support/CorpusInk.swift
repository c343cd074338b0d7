import Foundation

/// A handwriting sample from the shared corpus: its text and strokes in board coordinates.
struct CorpusSample {
    var id: String
    var text: String
    var strokes: [[(x: Double, y: Double)]]
}

enum Corpus {
    /// The shared corpus lives beside the package (`../shared`); in a nested checkout it is
    /// further up, so every ancestor of this file is tried.
    static func url(_ relative: String) -> URL? {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/corpus").appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Loads samples from a JSON-lines corpus file (`synthetic/print.jsonl`, ...).
    static func samples(_ relative: String) throws -> [CorpusSample] {
        guard let url = url(relative) else { throw CorpusError.missing(relative) }
        let data = try String(contentsOf: url, encoding: .utf8)
        return try data.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = object["id"] as? String, let text = object["text"] as? String,
                  let strokes = object["strokes"] as? [[String: Any]]
            else { throw CorpusError.malformed(relative) }
            let points = strokes.map { stroke -> [(x: Double, y: Double)] in
                let xs = (stroke["x"] as? [Double]) ?? []
                let ys = (stroke["y"] as? [Double]) ?? []
                return zip(xs, ys).map { (x: $0, y: $1) }
            }
            return CorpusSample(id: id, text: text, strokes: points)
        }
    }

    /// The first sample of a file whose text is exactly `text`.
    static func sample(_ relative: String, text: String) throws -> CorpusSample {
        guard let sample = try samples(relative).first(where: { $0.text == text }) else {
            throw CorpusError.noSample(text)
        }
        return sample
    }
}

enum CorpusError: Error {
    case missing(String)
    case malformed(String)
    case noSample(String)
}
