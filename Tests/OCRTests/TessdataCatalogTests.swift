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
        #expect(try catalog.directory(for: "ink") == models.path)
        #expect(try catalog.directory(for: "eng") == models.path)
        #expect(try catalog.directory(for: "num") == more.path)
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
            try catalog.directory(for: "klingon")
        }
        #expect(OCRError.unknownLanguage("klingon", installed: ["deu", "eng"]).description.contains("deu, eng"))
    }

    @Test func pathLikeNamesAreRefused() {
        let catalog = TessdataCatalog(environment: [:])
        for name in ["../eng", "eng/..", "", "eng+deu", "/etc/passwd"] {
            #expect(throws: OCRError.invalidLanguageName(name)) { try catalog.directory(for: name) }
        }
    }
}
