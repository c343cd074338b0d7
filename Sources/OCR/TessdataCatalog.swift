import Foundation

/// The installed Tesseract languages: every `<name>.traineddata` in the model directories.
///
/// Directories are searched in this order, the first file for a name winning:
/// 1. the extra model directories, in the order given (a project model such as
///    `Models/ink.traineddata` is served as language `ink`, and a file there may deliberately
///    shadow a system model of the same name);
/// 2. the tessdata directory: the one given explicitly, else `$TESSDATA_PREFIX`, else
///    Debian's `/usr/share/tesseract-ocr/5/tessdata`.
///
/// `osd` (orientation and script detection) is a helper model, not a language, and is skipped.
///
/// Aliases give a model a second request name: with `["eng": "ink", "eng-stock": "eng"]` a
/// request for English is read by the pen-ink model `ink`, and Tesseract's own `eng` file stays
/// reachable as `eng-stock`. An alias points at a model file, never at another alias, and is
/// dropped when its model is not installed (then `eng` is simply the `eng` file again).
///
/// A hint model reads a model's requests under one character hint: `<model>-<hint>`
/// (`ink-number`, the pen-ink network trained further on numbers alone, reads `ink`'s requests
/// with the `number` hint) is used in its place when that file is installed (`model(for:hint:)`),
/// and so is a model named for it explicitly (`["ink-tall": ["number": "ink-number", "digits":
/// "ink"]]`: the taller reading's numbers and digits read by the networks that read them best),
/// when both are installed. The catalog is a snapshot taken when it is created.
public struct TessdataCatalog: Sendable, Hashable {
    /// Debian's location for Tesseract 5 models (`tesseract-ocr-*` packages).
    public static let debianTessdataDirectory = "/usr/share/tesseract-ocr/5/tessdata"
    static let modelSuffix = ".traineddata"
    static let helperModels: Set<String> = ["osd"]

    /// The system tessdata directory in use.
    public let tessdataDirectory: String
    public let extraDirectories: [String]
    /// Model name (file name without `.traineddata`) → directory holding the file.
    public let directories: [String: String]
    /// Request name → model name, for the aliases whose model is installed.
    public let aliases: [String: String]
    /// Every name a request may use (model names and aliases), sorted.
    public let languages: [String]
    /// Model name → the height its LSTM network reads lines at (`NetworkInputHeight`), for the
    /// models whose file says.
    public let networkInputHeights: [String: Int]
    /// Model name → hint (`CharacterHint.rawValue`) → the installed model that reads that
    /// model's requests under the hint, for every model that has one.
    public let hintModels: [String: [String: String]]

    /// Scans the directories now. Missing directories contribute nothing (the catalog may then
    /// be empty; the pool reports that when it fails to load its default language).
    /// - Parameter hintModels: model → hint (`CharacterHint.rawValue`) → the model that reads the
    ///   first's requests under that hint, in preference to a `<model>-<hint>` file.
    public init(
        tessdataDirectory: String? = nil,
        extraDirectories: [String] = [],
        aliases: [String: String] = [:],
        hintModels named: [String: [String: String]] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        let system = tessdataDirectory
            ?? environment["TESSDATA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.debianTessdataDirectory
        self.tessdataDirectory = Self.trimmingTrailingSlash(system)
        self.extraDirectories = extraDirectories.map(Self.trimmingTrailingSlash)
        var directories: [String: String] = [:]
        for directory in self.extraDirectories + [self.tessdataDirectory] {
            for language in Self.scan(directory) where directories[language] == nil {
                directories[language] = directory
            }
        }
        self.directories = directories
        self.aliases = aliases.filter { name, model in
            LanguageName.isValid(name) && directories[model] != nil
        }
        languages = Set(directories.keys).union(self.aliases.keys).sorted()
        var heights: [String: Int] = [:]
        for (model, directory) in directories {
            heights[model] = NetworkInputHeight.read(atPath: directory + "/" + model + Self.modelSuffix)
        }
        networkInputHeights = heights
        var hintModels: [String: [String: String]] = [:]
        for model in directories.keys {
            for hint in CharacterHint.allCases where hint != .text && directories[model + "-" + hint.rawValue] != nil {
                hintModels[model, default: [:]][hint.rawValue] = model + "-" + hint.rawValue
            }
        }
        for (model, hints) in named where directories[model] != nil {
            for (hint, reader) in hints where directories[reader] != nil && reader != model
                && CharacterHint(rawValue: hint).map({ $0 != .text }) == true {
                hintModels[model, default: [:]][hint] = reader
            }
        }
        self.hintModels = hintModels
    }

    /// The model that reads `language` and the directory to pass to `TesseractHandle` for it.
    ///
    /// - Throws: `.invalidLanguageName` for names that could be paths, `.unknownLanguage` (with the
    ///   installed languages) when neither an alias nor a model file has that name.
    public func model(for language: String) throws(OCRError) -> (name: String, directory: String) {
        guard LanguageName.isValid(language) else { throw .invalidLanguageName(language) }
        let model = aliases[language] ?? language
        guard let directory = directories[model] else {
            throw .unknownLanguage(language, installed: languages)
        }
        return (model, directory)
    }

    /// The model file `name` itself, no alias applied: for a name `model(for:)` already
    /// resolved (`eng-stock` resolves to the model `eng`, which as a request name is `ink`).
    ///
    /// - Throws: `.unknownLanguage` when no model file has that name.
    public func model(named name: String) throws(OCRError) -> (name: String, directory: String) {
        guard let directory = directories[name] else { throw .unknownLanguage(name, installed: languages) }
        return (name, directory)
    }

    /// The model that reads `language` under `hint`: its hint model when one is installed
    /// (`ink-number` for `eng` or `ink` under `.number`), else `model(for: language)`.
    public func model(for language: String, hint: CharacterHint) throws(OCRError) -> (name: String, directory: String) {
        let model = try model(for: language)
        guard let name = hintModels[model.name]?[hint.rawValue], let directory = directories[name] else { return model }
        return (name, directory)
    }

    /// Model names in one directory: regular files named `<valid name>.traineddata`.
    static func scan(_ directory: String) -> [String] {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(atPath: directory) else { return [] }
        return entries.compactMap { entry in
            guard entry.hasSuffix(modelSuffix) else { return nil }
            let name = String(entry.dropLast(modelSuffix.count))
            guard LanguageName.isValid(name), !helperModels.contains(name) else { return nil }
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: directory + "/" + entry, isDirectory: &isDirectory),
                  !isDirectory.boolValue
            else { return nil }
            return name
        }
    }

    private static func trimmingTrailingSlash(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
