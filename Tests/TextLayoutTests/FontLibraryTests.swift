import Foundation
import Testing
@testable import TextLayout

@Suite("FontLibrary")
struct FontLibraryTests {
    @Test("every family loads from Debian's fonts-dejavu-core")
    func loadsAllFamilies() throws {
        let library = try Fixtures.library.get()
        for family in FontFamily.allCases {
            let face = library.face(family)
            #expect(face.path.hasSuffix(family.fileName))
            // DejaVu is a TrueType family designed on a 2048-unit em.
            #expect(face.unitsPerEm == 2048)
            #expect(face.ascender > 0 && face.descender > 0)
        }
    }

    @Test("family names parse, and an unknown one lists the known families")
    func familyNames() throws {
        #expect(try FontFamily(name: "sans-bold") == .sansBold)
        #expect(try FontFamily(name: "mono") == .mono)
        #expect(FontFamily.default == .sansBold)
        let error = #expect(throws: TextLayoutError.self) { try FontFamily(name: "Futura-Bold") }
        #expect(error == .unknownFamily(
            name: "Futura-Bold", known: ["sans", "sans-bold", "serif", "serif-bold", "mono", "mono-bold"]))
        #expect(error?.description.contains("sans-bold") == true)
    }

    @Test("a missing font directory is a start-up error naming the Debian package")
    func missingDirectory() {
        let path = "/nonexistent/fonts-\(UUID().uuidString)"
        let error = #expect(throws: TextLayoutError.self) {
            try FontLibrary(configuration: TextLayoutConfiguration(fontDirectory: path))
        }
        #expect(error == .fontDirectoryMissing(path: path, debianPackage: "fonts-dejavu-core"))
        #expect(error?.description.contains("fonts-dejavu-core") == true)
    }

    @Test("a directory lacking one family's file names that family and file")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        // Every family but serif-bold, linked from the real installation.
        for family in FontFamily.allCases where family != .serifBold {
            try FileManager.default.createSymbolicLink(
                atPath: directory.path + "/" + family.fileName,
                withDestinationPath: "/usr/share/fonts/truetype/dejavu/" + family.fileName)
        }
        let error = #expect(throws: TextLayoutError.self) {
            try FontLibrary(configuration: TextLayoutConfiguration(fontDirectory: directory.path))
        }
        #expect(error == .fontFileMissing(
            family: .serifBold, path: directory.path + "/DejaVuSerif-Bold.ttf", debianPackage: "fonts-dejavu-core"))
    }

    @Test("a file that is not a font is reported with FreeType's error")
    func unreadableFile() throws {
        let directory = try TemporaryDirectory()
        for family in FontFamily.allCases {
            let path = directory.path + "/" + family.fileName
            if family == .sans {
                try Data("not a font".utf8).write(to: URL(fileURLWithPath: path))
            } else {
                try FileManager.default.createSymbolicLink(
                    atPath: path, withDestinationPath: "/usr/share/fonts/truetype/dejavu/" + family.fileName)
            }
        }
        let error = #expect(throws: TextLayoutError.self) {
            try FontLibrary(configuration: TextLayoutConfiguration(fontDirectory: directory.path))
        }
        guard case let .fontFileUnreadable(path, code) = error else {
            Issue.record("expected fontFileUnreadable, got \(String(describing: error))")
            return
        }
        #expect(path == directory.path + "/DejaVuSans.ttf")
        #expect(code != 0)
    }

    @Test("missing fallback faces are reported but not fatal")
    func missingFallbacks() throws {
        let library = try FontLibrary(configuration: TextLayoutConfiguration(
            fallbackFontDirectory: "/nonexistent/nanum-\(UUID().uuidString)"))
        #expect(library.fallbackFamilies.isEmpty)
        #expect(library.fallbackProblems.count == FontFamily.allCases.count)
        for problem in library.fallbackProblems {
            guard case let .fontFileMissing(_, _, package) = problem else {
                Issue.record("unexpected \(problem)")
                continue
            }
            #expect(package == "fonts-nanum")
        }
    }

    @Test("vertical metrics scale with size and the line height is ascent + descent + gap")
    func verticalMetrics() throws {
        let library = try Fixtures.library.get()
        let small = library.verticalMetrics(family: .sansBold, size: 10)
        let large = library.verticalMetrics(family: .sansBold, size: 30)
        #expect(abs(large.lineHeight - 3 * small.lineHeight) < 1e-12)
        #expect(abs(large.ascent - 3 * small.ascent) < 1e-12)
        // DejaVu's hhea line gap is 0, so its natural line height is exactly ascent + descent.
        #expect(abs(small.lineHeight - (small.ascent + small.descent)) < 1e-12)
        #expect(small.ascent > small.descent)
    }
}

/// A fresh directory under the system temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "textlayout-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
