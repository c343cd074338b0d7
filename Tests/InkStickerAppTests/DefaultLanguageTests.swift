import Foundation
import InkStickerApp
import Testing

/// The default recognition language: the shipped pen-ink model (`Models/ink.traineddata`) when
/// it is installed, `eng` otherwise or when `--lang` says so; `eng` stays selectable per request.
@Suite(.serialized) struct DefaultLanguageTests {
    /// A short printed word from the synthetic corpus, as request strokes.
    static func word() throws -> [[String: [Double]]] {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let file = directory.appendingPathComponent("shared/corpus/synthetic/print.jsonl")
            if let text = try? String(contentsOf: file, encoding: .utf8), let line = text.split(separator: "\n").first,
               let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let strokes = object["strokes"] as? [[String: Any]] {
                return strokes.map { ["x": $0["x"] as? [Double] ?? [], "y": $0["y"] as? [Double] ?? []] }
            }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    @Test func shippedModelIsTheDefaultAndEngStaysSelectable() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let languages = try client.request("GET", "/v1/languages")
        #expect(languages.json["default"] as? String == "ink")
        #expect((languages.json["languages"] as? [String]).map { Set($0).isSuperset(of: ["ink", "eng"]) } == true)
        let strokes = try Self.word()
        for lang in ["ink", "eng"] {
            let read = try client.request("POST", "/v1/recognize", json: ["strokes": strokes, "lang": lang])
            #expect(read.status == 200)
            #expect((read.json["text"] as? String)?.isEmpty == false)
        }
    }

    @Test func withoutTheModelTheDefaultIsEng() throws {
        let empty = NSTemporaryDirectory() + "inksticker-no-models-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let harness = try ServiceHarness { $0.modelsDirectory = empty }
        let languages = try harness.client.request("GET", "/v1/languages")
        #expect(languages.json["default"] as? String == "eng")
        #expect((languages.json["languages"] as? [String])?.contains("ink") == false)
    }

    @Test func langOptionOverridesTheModel() throws {
        let configuration = try AppOptions.parse(arguments: ["--lang", "eng"], environment: [:])
        #expect(configuration.defaultLanguage == "eng")
        #expect(configuration.preferredLanguage == nil)
        let harness = try ServiceHarness {
            $0.defaultLanguage = configuration.defaultLanguage
            $0.preferredLanguage = configuration.preferredLanguage
        }
        #expect(try harness.client.request("GET", "/v1/languages").json["default"] as? String == "eng")
    }
}
