import Glibc
import CTesseract

/// One initialised Tesseract engine (`TessBaseAPI`) for one language.
///
/// A handle is confined to the thread that uses it: Tesseract keeps per-recognition state in
/// the handle, so it is deliberately not `Sendable`. The worker pool gives each worker thread its
/// own handles. Initialisation costs about 100 ms and 12–22 MB, so handles are long-lived.
public final class TesseractHandle {
    /// The language the handle was initialised with (e.g. `eng`, or `ink` for a bundled model).
    public let language: String
    /// The directory the `<language>.traineddata` file was loaded from.
    public let tessdataPath: String
    public let settings: TesseractSettings

    let api: OpaquePointer
    /// Reused for every recognition: it only carries the deadline and progress.
    let monitor: OpaquePointer
    /// Whether `lstm_choice_mode` is currently 2 on the handle (it starts at 0).
    var alternativesEnabled = false

    /// Loads `<tessdataPath>/<language>.traineddata`.
    ///
    /// - Throws: `OCRError.initializationFailed` naming the language, the directory and, where
    ///   known, the package to install; `OCRError.invalidLanguageName` for names that could
    ///   escape the directory.
    public init(
        tessdataPath: String,
        language: String,
        engine: TesseractEngine = .lstmOnly,
        settings: TesseractSettings = TesseractSettings()
    ) throws(OCRError) {
        guard LanguageName.isValid(language) else { throw .invalidLanguageName(language) }
        guard let api = TessBaseAPICreate() else { throw .handleCreationFailed }
        guard let monitor = TessMonitorCreate() else {
            TessBaseAPIDelete(api)
            throw .handleCreationFailed
        }
        let code = Self.initialise(api, tessdataPath: tessdataPath, language: language,
                                   engine: engine, settings: settings)
        guard code == 0 else {
            TessMonitorDelete(monitor)
            TessBaseAPIEnd(api)
            TessBaseAPIDelete(api)
            throw .initializationFailed(language: language, tessdataPath: tessdataPath, code: code,
                                        hint: LanguageName.failureHint(language: language, tessdataPath: tessdataPath))
        }
        self.api = api
        self.monitor = monitor
        self.language = language
        self.tessdataPath = tessdataPath
        self.settings = settings
    }

    deinit {
        TessMonitorDelete(monitor)
        // End releases the model and Tesseract's shared object cache entries; without it a
        // process exits with "ObjectCache ... LEAK!" on stderr.
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Reads back a variable as Tesseract holds it (to check that a setting took effect).
    public func variable(_ name: String) -> String? {
        var intValue: Int32 = 0
        if TessBaseAPIGetIntVariable(api, name, &intValue) != 0 { return String(intValue) }
        var boolValue: Int32 = 0
        if TessBaseAPIGetBoolVariable(api, name, &boolValue) != 0 { return boolValue != 0 ? "1" : "0" }
        var doubleValue: Double = 0
        if TessBaseAPIGetDoubleVariable(api, name, &doubleValue) != 0 { return String(doubleValue) }
        return TessBaseAPIGetStringVariable(api, name).map { String(cString: $0) }
    }

    private static func initialise(
        _ api: OpaquePointer, tessdataPath: String, language: String,
        engine: TesseractEngine, settings: TesseractSettings
    ) -> Int32 {
        let pairs = settings.initVariables
        let names = pairs.map { strdup($0.name) }
        let values = pairs.map { strdup($0.value) }
        defer {
            names.forEach { free($0) }
            values.forEach { free($0) }
        }
        var namePointers = names
        var valuePointers = values
        return namePointers.withUnsafeMutableBufferPointer { nameBuffer in
            valuePointers.withUnsafeMutableBufferPointer { valueBuffer in
                TessBaseAPIInit4(api, tessdataPath, language, engine.tessValue,
                                 nil, 0,
                                 nameBuffer.baseAddress, valueBuffer.baseAddress, pairs.count,
                                 0)
            }
        }
    }
}

extension TesseractEngine {
    var tessValue: TessOcrEngineMode {
        switch self {
        case .lstmOnly: OEM_LSTM_ONLY
        }
    }
}

/// A handle keeps per-recognition state inside Tesseract: it must never be shared between threads.
@available(*, unavailable)
extension TesseractHandle: Sendable {}
