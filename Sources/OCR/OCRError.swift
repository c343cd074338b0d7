/// Everything that can go wrong between an image and its text.
///
/// Every case carries the context needed to act on it without a debugger: the language and
/// directory for a failed initialisation, the installed languages for an unknown one, the
/// deadline that was exceeded.
public enum OCRError: Error, Sendable, Equatable {
    /// `TessBaseAPIInit4` returned non-zero: the model file is missing or unreadable.
    ///
    /// `hint` names what to install (for example the Debian package `tesseract-ocr-eng`)
    /// when that is known, else it is `nil`.
    case initializationFailed(language: String, tessdataPath: String, code: Int32, hint: String?)
    /// `TessBaseAPICreate` returned no handle (out of memory).
    case handleCreationFailed
    /// The requested language has no `<language>.traineddata` in any known directory.
    case unknownLanguage(String, installed: [String])
    /// A language name that could be a path or otherwise cannot name a model file.
    case invalidLanguageName(String)
    /// The image cannot be handed to Tesseract (empty, or larger than the configured limits).
    case invalidImage(width: Int, height: Int, reason: String)
    /// Recognition did not finish before its deadline and was cancelled by Tesseract's monitor.
    case deadlineExceeded(milliseconds: Int)
    /// `TessBaseAPIRecognize` failed for another reason (it returns non-zero without detail).
    case recognitionFailed(code: Int32)
    /// The worker pool's queue is full; retry after roughly this many seconds.
    case overloaded(retryAfterSeconds: Int)
    /// The worker pool is shutting down or has shut down; the job was not run.
    case shuttingDown
    /// A worker thread could not be started (`pthread_create` error number).
    case threadStartFailed(errno: Int32)
}

extension OCRError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .initializationFailed(language, path, code, hint):
            let advice = hint.map { " (\($0))" } ?? ""
            return "Tesseract could not load language '\(language)' from '\(path)' (code \(code))\(advice)"
        case .handleCreationFailed:
            return "TessBaseAPICreate returned no handle"
        case let .unknownLanguage(language, installed):
            let list = installed.isEmpty ? "none" : installed.joined(separator: ", ")
            return "unknown OCR language '\(language)'; installed: \(list)"
        case let .invalidLanguageName(name):
            return "'\(name)' is not a valid language name (letters, digits, '_' and '-' only)"
        case let .invalidImage(width, height, reason):
            return "image \(width)x\(height) cannot be recognised: \(reason)"
        case let .deadlineExceeded(milliseconds):
            return "recognition exceeded its deadline of \(milliseconds) ms"
        case let .recognitionFailed(code):
            return "TessBaseAPIRecognize failed (code \(code))"
        case let .overloaded(seconds):
            return "OCR queue is full; retry after \(seconds) s"
        case .shuttingDown:
            return "OCR worker pool is shutting down"
        case let .threadStartFailed(errno):
            return "could not start an OCR worker thread (errno \(errno))"
        }
    }
}
