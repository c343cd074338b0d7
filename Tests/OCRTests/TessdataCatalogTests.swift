import Foundation
import Testing
@testable import OCR

@Suite struct TessdataCatalogTests {
    private func makeDirectory(_ files: [String]) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        for file in files {
            try Data("model".utf8).write(to: directory.appendingPathComponent(file))
        }
        return directory
    }

    @Test func systemDirectoryListsEnglishButNotOsd() {
        let catalog = TessdataCatalog(environment: [:])
        #expect(catalog.tessdataDirectory == TessdataCatalog.debianTessdataDirectory)
        #expect(catalog.languages.contains("eng"))
        #expect(!catalog.languages.contains("osd"))
    }

    @Test func onlyValidTraineddataFilesAreLanguages() throws {
        let directory = try makeDirectory(["deu.traineddata", "osd.traineddata", "notes.txt",
                                           "bad name.traineddata", "fra.traineddata.bak"])
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir.traineddata"),
                                                withIntermediateDirectories: false)
        let catalog = TessdataCatalog(tessdataDirectory: directory.path, environment: [:])
        #expect(catalog.languages == ["deu"])
    }

    @Test func tessdataPrefixIsHonouredAndExplicitDirectoryWins() throws {
        let fromEnvironment = try makeDirectory(["fra.traineddata"])
        let explicit = try makeDirectory(["ita.traineddata"])
        let environment = ["TESSDATA_PREFIX": fromEnvironment.path + "/"]
        #expect(TessdataCatalog(environment: environment).languages == ["fra"])
        #expect(TessdataCatalog(environment: environment).tessdataDirectory == fromEnvironment.path)
        #expect(TessdataCatalog(tessdataDirectory: explicit.path, environment: environment).languages == ["ita"])
    }

    @Test func extraDirectoriesAddLanguagesAndShadowInOrder() throws {
        let system = try makeDirectory(["eng.traineddata"])
        let models = try makeDirectory(["ink.traineddata", "eng.traineddata"])
        let more = try makeDirectory(["ink.traineddata", "num.traineddata"])
        let catalog = TessdataCatalog(tessdataDirectory: system.path,
                                      extraDirectories: [models.path, more.path], environment: [:])
        #expect(catalog.languages == ["eng", "ink", "num"])
        #expect(try catalog.model(for: "ink").directory == models.path)
        #expect(try catalog.model(for: "eng").directory == models.path)
        #expect(try catalog.model(for: "num").directory == more.path)
    }

    @Test func aliasesNameAnInstalledModelAndNeverChain() throws {
        let system = try makeDirectory(["eng.traineddata"])
        let models = try makeDirectory(["ink.traineddata"])
        let catalog = TessdataCatalog(tessdataDirectory: system.path, extraDirectories: [models.path],
                                      aliases: ["eng": "ink", "eng-stock": "eng", "deu": "missing",
                                                "twice": "eng-stock", "../x": "ink"],
                                      environment: [:])
        // Aliases of models that are not files (missing, another alias) or with path-like
        // names are dropped.
        #expect(catalog.aliases == ["eng": "ink", "eng-stock": "eng"])
        #expect(catalog.languages == ["eng", "eng-stock", "ink"])
        #expect(try catalog.model(for: "eng") == ("ink", models.path))
        #expect(try catalog.model(for: "eng-stock") == ("eng", system.path))
        #expect(try catalog.model(for: "ink") == ("ink", models.path))
        #expect(throws: OCRError.unknownLanguage("twice", installed: ["eng", "eng-stock", "ink"])) {
            try catalog.model(for: "twice")
        }
    }

    @Test func hintModelsReadTheirModelsRequestsUnderTheirHint() throws {
        let system = try makeDirectory(["eng.traineddata"])
        let models = try makeDirectory(["ink.traineddata", "ink-number.traineddata", "kor-ink.traineddata",
                                        "eng-text.traineddata"])
        let catalog = TessdataCatalog(tessdataDirectory: system.path, extraDirectories: [models.path],
                                      aliases: ["eng": "ink", "kor": "kor-ink"], environment: [:])
        // `-text` is no hint model: the text hint is no constraint.
        #expect(catalog.hintModels == ["ink": ["number": "ink-number"]])
        #expect(try catalog.model(for: "eng", hint: .number) == ("ink-number", models.path))
        #expect(try catalog.model(for: "ink", hint: .number) == ("ink-number", models.path))
        #expect(try catalog.model(for: "eng", hint: .digits) == ("ink", models.path))
        #expect(try catalog.model(for: "eng", hint: .text) == ("ink", models.path))
        #expect(try catalog.model(for: "kor", hint: .number) == ("kor-ink", models.path))
        #expect(try catalog.model(for: "eng-text", hint: .number) == ("eng-text", models.path))
        // Still a language of its own, to be requested by name.
        #expect(catalog.languages.contains("ink-number"))
        #expect(throws: OCRError.unknownLanguage("deu", installed: catalog.languages)) {
            try catalog.model(for: "deu", hint: .number)
        }
    }

    /// Hint models named in the configuration: the taller reading's numbers and digits read by
    /// other networks, kept only when both models are installed, and never for the text hint.
    @Test func namedHintModelsReadAnotherModelsRequests() throws {
        let system = try makeDirectory(["eng.traineddata"])
        let models = try makeDirectory(["ink.traineddata", "ink-tall.traineddata", "ink-number.traineddata"])
        let catalog = TessdataCatalog(tessdataDirectory: system.path, extraDirectories: [models.path],
                                      aliases: ["eng": "ink-tall"],
                                      hintModels: ["ink-tall": ["number": "ink-number", "digits": "ink", "text": "ink"],
                                                   "ink": ["digits": "ink-digits"], "kor-ink": ["number": "ink-number"]],
                                      environment: [:])
        #expect(catalog.hintModels == ["ink": ["number": "ink-number"], "ink-tall": ["number": "ink-number", "digits": "ink"]])
        #expect(try catalog.model(for: "eng", hint: .number) == ("ink-number", models.path))
        #expect(try catalog.model(for: "eng", hint: .digits) == ("ink", models.path))
        #expect(try catalog.model(for: "eng", hint: .text) == ("ink-tall", models.path))
        #expect(try catalog.model(for: "ink", hint: .digits) == ("ink", models.path))
        // Named in preference to a `<model>-<hint>` file.
        let files = try makeDirectory(["ink.traineddata", "ink-number.traineddata", "ink-old.traineddata"])
        let preferring = TessdataCatalog(tessdataDirectory: system.path, extraDirectories: [files.path],
                                         hintModels: ["ink": ["number": "ink-old"]], environment: [:])
        #expect(try preferring.model(for: "ink", hint: .number) == ("ink-old", files.path))
    }

    @Test func withoutItsModelAnAliasedNameIsTheFileAgain() throws {
        let system = try makeDirectory(["eng.traineddata"])
        let catalog = TessdataCatalog(tessdataDirectory: system.path, aliases: ["eng": "ink", "eng-stock": "eng"],
                                      environment: [:])
        #expect(catalog.aliases == ["eng-stock": "eng"])
        #expect(try catalog.model(for: "eng") == ("eng", system.path))
    }

    @Test func missingDirectoriesContributeNothing() {
        let catalog = TessdataCatalog(tessdataDirectory: "/nonexistent/tessdata",
                                      extraDirectories: ["/nonexistent/models"], environment: [:])
        #expect(catalog.languages.isEmpty)
    }

    @Test func unknownLanguageListsInstalledOnes() throws {
        let catalog = TessdataCatalog(tessdataDirectory: try makeDirectory(["eng.traineddata", "deu.traineddata"]).path,
                                      environment: [:])
        #expect(throws: OCRError.unknownLanguage("klingon", installed: ["deu", "eng"])) {
            try catalog.model(for: "klingon")
        }
        #expect(OCRError.unknownLanguage("klingon", installed: ["deu", "eng"]).description.contains("deu, eng"))
    }

    /// The height each model's network reads lines at comes from its file: 36 for Tesseract's
    /// English and the pen-ink model, 48 for Tesseract's Korean; nothing for a file that is not
    /// a model, is cut short, or whose Input layer does not check out.
    @Test func networkInputHeightsComeFromTheFiles() throws {
        let system = TessdataCatalog(extraDirectories: [ShippedModelTests.modelsDirectory], environment: [:])
        #expect(system.networkInputHeights["eng"] == 36)
        #expect(system.networkInputHeights["ink"] == 36)
        if system.languages.contains("kor") {
            #expect(system.networkInputHeights["kor"] == 48)
        }
        let eng = try Data(contentsOf: URL(fileURLWithPath: TessdataCatalog.debianTessdataDirectory + "/eng.traineddata"))
        let inputAt = try #require(eng.range(of: Data([5, 0, 0, 0] + Array("Input".utf8)))).lowerBound
        var deep = eng
        deep[inputAt + 9 + 2 + 4 + 12 + 9 + 12] = 3  // the Input shape's depth: 3, not 1
        let directory = try makeDirectory(["fake.traineddata"])
        try eng.prefix(inputAt + 30).write(to: directory.appendingPathComponent("cut.traineddata"))
        try deep.write(to: directory.appendingPathComponent("deep.traineddata"))
        try eng.write(to: directory.appendingPathComponent("whole.traineddata"))
        let catalog = TessdataCatalog(tessdataDirectory: directory.path, environment: [:])
        #expect(catalog.languages == ["cut", "deep", "fake", "whole"])
        #expect(catalog.networkInputHeights == ["whole": 36])
    }

    @Test func pathLikeNamesAreRefused() {
        let catalog = TessdataCatalog(environment: [:])
        for name in ["../eng", "eng/..", "", "eng+deu", "/etc/passwd"] {
            #expect(throws: OCRError.invalidLanguageName(name)) { try catalog.model(for: name) }
        }
    }
}
