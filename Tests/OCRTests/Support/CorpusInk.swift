import Foundation

/// An ink fixture sample (`Tests/Fixtures/ink`): its text and strokes in board coordinates.
struct CorpusSample {
    var id: String
    var text: String
    var strokes: [[(x: Double, y: Double)]]
}

enum Corpus {
    /// The ink fixtures of the repository: `Tests/Fixtures/ink` (made by `make_ink.py`) and
    /// `Tests/Fixtures/hangul` (made by `training/kor/make_eval.py`).
    static func url(_ relative: String, folder: String = "ink") -> URL? {
        let candidate = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(folder)
            .appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }

    /// Loads samples from a JSON-lines fixture file (`print.jsonl`, ...).
    static func samples(_ relative: String, folder: String = "ink") throws -> [CorpusSample] {
        guard let url = url(relative, folder: folder) else { throw CorpusError.missing(relative) }
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
