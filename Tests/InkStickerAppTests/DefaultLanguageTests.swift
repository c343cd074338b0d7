import Foundation
import InkStickerApp
import Testing

/// The default recognition language: the shipped pen-ink model that reads lines 48 pixels high
/// (`Models/ink-tall.traineddata`), required at start-up unless `--lang` names another. A request
/// for `eng` is read by it too (alias), the 36-pixel `ink` stays selectable, and so does
/// Tesseract's stock `eng`, as `eng-stock`.
@Suite(.serialized) struct DefaultLanguageTests {
    /// A short printed word of the ink fixtures, as request strokes.
    static func word() throws -> [[String: [Double]]] {
        let text = try String(contentsOfFile: TestPaths.fixtures + "/print.jsonl", encoding: .utf8)
        guard let line = text.split(separator: "\n").first,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let strokes = object["strokes"] as? [[String: Any]] else { throw CocoaError(.fileReadCorruptFile) }
        return strokes.map { ["x": $0["x"] as? [Double] ?? [], "y": $0["y"] as? [Double] ?? []] }
    }

    @Test func shippedModelIsTheDefaultAndReadsEnglishWhileStockEngStaysSelectable() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let languages = try client.request("GET", "/v1/languages")
        #expect(languages.json["default"] as? String == "ink-tall")
        #expect((languages.json["languages"] as? [String]).map { Set($0).isSuperset(of: ["ink", "ink-tall", "eng", "eng-stock"]) } == true)
        #expect(languages.json["aliases"] as? [String: String]
                == ["eng": "ink-tall", "eng-stock": "eng", "kor": "kor-ink", "ko": "kor-ink", "kor-stock": "kor"])
        let strokes = try Self.word()
        var readings: [String: Any] = [:]
        for lang in ["ink-tall", "eng", "ink", "eng-stock"] {
            let read = try client.request("POST", "/v1/recognize", json: ["strokes": strokes, "lang": lang])
            #expect(read.status == 200)
            #expect((read.json["text"] as? String)?.isEmpty == false)
            readings[lang] = read.json["lines"]
        }
        // One model behind "eng" and "ink-tall": the same lines and words, confidences and boxes;
        // another behind "ink".
        let tall = try JSONSerialization.data(withJSONObject: readings["ink-tall"] ?? [], options: .sortedKeys)
        let eng = try JSONSerialization.data(withJSONObject: readings["eng"] ?? [], options: .sortedKeys)
        let ink = try JSONSerialization.data(withJSONObject: readings["ink"] ?? [], options: .sortedKeys)
        #expect(tall == eng)
        #expect(ink != eng)
    }

    /// Printed numbers of the ink fixtures (one line each), as request strokes.
    static func numbers() throws -> [[[String: [Double]]]] {
        let text = try String(contentsOfFile: TestPaths.fixtures + "/print.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let label = object["text"] as? String, !label.contains("\n"), label.contains(where: \.isNumber),
                  label.allSatisfy({ $0.isNumber || "$.,:/-()% ".contains($0) }),
                  let strokes = object["strokes"] as? [[String: Any]] else { return nil }
            return strokes.map { ["x": $0["x"] as? [Double] ?? [], "y": $0["y"] as? [Double] ?? []] }
        }
    }

    /// Under the `number` hint, `eng`, `ink-tall` and `ink` (the pen-ink models) are read by the
    /// number network `ink-number` (Models/ink-number.traineddata): the same lines, confidences
    /// and boxes as asking for `ink-number`; under `digits`, `eng` is read by `ink`; with
    /// `--hint-models ignore`, by the model asked for (other confidences at least: another
    /// network).
    @Test func numbersAreReadByTheNumberNetworkUnlessHintModelsAreIgnored() throws {
        let numbers = try Self.numbers()
        try #require(numbers.count >= 5)
        func lines(_ client: TestClient, _ lang: String, _ charset: String) throws -> Data {
            var all: [Any] = []
            for strokes in numbers.prefix(5) {
                let read = try client.request("POST", "/v1/recognize",
                                              json: ["strokes": strokes, "lang": lang, "hints": ["charset": charset]])
                #expect(read.status == 200)
                all.append(read.json["lines"] ?? [])
            }
            return try JSONSerialization.data(withJSONObject: all, options: .sortedKeys)
        }
        let harness = try ServiceHarness()
        let languages = try harness.client.request("GET", "/v1/languages")
        #expect(languages.json["hintModels"] as? [String: [String: String]]
                == ["ink": ["number": "ink-number"], "ink-tall": ["number": "ink-number", "digits": "ink"]])
        let byNumberNetwork = try lines(harness.client, "ink-number", "number")
        #expect(try lines(harness.client, "eng", "number") == byNumberNetwork)
        #expect(try lines(harness.client, "ink-tall", "number") == byNumberNetwork)
        #expect(try lines(harness.client, "ink", "number") == byNumberNetwork)

        let configuration = try AppOptions.parse(arguments: ["--hint-models", "ignore"], environment: [:])
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--hint-models", "maybe"], environment: [:]) }
        let ignoring = try ServiceHarness { $0.usesHintModels = configuration.usesHintModels }
        #expect(try ignoring.client.request("GET", "/v1/languages").json["hintModels"] as? [String: [String: String]] == [:])
        let byTall = try lines(ignoring.client, "eng", "number")
        #expect(byTall != byNumberNetwork)
        #expect(try lines(ignoring.client, "ink-number", "number") == byNumberNetwork)
        // Digits: `ink` reads the default's; ignoring hint models, the default itself.
        let digitsByInk = try lines(harness.client, "ink", "digits")
        #expect(try lines(harness.client, "eng", "digits") == digitsByInk)
        #expect(try lines(ignoring.client, "ink", "digits") == digitsByInk)
        let digitsByTall = try lines(ignoring.client, "eng", "digits")
        #expect(digitsByTall != digitsByInk)
        #expect(try lines(ignoring.client, "ink-tall", "digits") == digitsByTall)
    }

    @Test func aliasesCanBeSwitchedOff() throws {
        let configuration = try AppOptions.parse(arguments: ["--lang-alias", ""], environment: [:])
        #expect(configuration.languageAliases.isEmpty)
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--lang-alias", "eng"], environment: [:]) }
        let harness = try ServiceHarness { $0.languageAliases = configuration.languageAliases }
        let languages = try harness.client.request("GET", "/v1/languages")
        #expect(languages.json["aliases"] as? [String: String] == [:])
        #expect((languages.json["languages"] as? [String])?.contains("eng-stock") == false)
    }

    @Test func withoutTheModelStartUpFailsUnlessLangIsGiven() throws {
        let empty = NSTemporaryDirectory() + "inksticker-no-models-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect {
            _ = try ServiceHarness { $0.modelsDirectory = empty }
        } throws: { error in
            let message = String(describing: error)
            return message.contains("ink-tall.traineddata") && message.contains(empty) && message.contains("--lang eng")
        }
        let harness = try ServiceHarness {
            $0.modelsDirectory = empty
            $0.defaultLanguage = "eng"
            $0.preferredLanguage = nil
        }
        let languages = try harness.client.request("GET", "/v1/languages")
        #expect(languages.json["default"] as? String == "eng")
        #expect((languages.json["languages"] as? [String]).map { !$0.contains("ink") && !$0.contains("ink-tall") } == true)
        // The aliases to the missing models are gone: eng (and kor) are the stock models again.
        #expect(languages.json["aliases"] as? [String: String] == ["eng-stock": "eng", "kor-stock": "kor"])
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
