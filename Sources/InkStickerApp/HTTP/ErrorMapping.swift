import HTTPServer
import OCR
import Store

/// The one mapping from errors thrown anywhere below the routes to API errors.
/// Anything not listed is unexpected: logged and answered 500 without internals.
enum ErrorMapping {
    static func apiError(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as StoreError:
            return storeError(error)
        case let error as OCRError:
            return ocrError(error)
        case let error as SQLiteError where error.code == .busy || error.code == .locked:
            return APIError(.serviceUnavailable, "the database is busy; retry shortly", headers: [("Retry-After", "1")])
        default:
            return nil
        }
    }

    private static func storeError(_ error: StoreError) -> APIError? {
        switch error {
        case .notFound(let entity, _):
            return .notFound(entity.rawValue)
        case .versionConflict:
            return APIError(.preconditionFailed, "the sticker changed concurrently; fetch it and retry")
        case .labelIsFinal:
            return APIError(.conflict, "the sticker is a label; labels never go back to fields")
        case .closed, .readerUnavailable:
            return APIError(.serviceUnavailable, "the database is not available; retry shortly", headers: [("Retry-After", "1")])
        default:
            return nil
        }
    }

    static func ocrError(_ error: OCRError) -> APIError {
        switch error {
        case .overloaded(let seconds):
            return APIError(.serviceUnavailable, "all recognisers are busy; retry shortly",
                            headers: [("Retry-After", String(max(1, seconds)))])
        case .shuttingDown:
            return APIError(.serviceUnavailable, "the server is shutting down", headers: [("Retry-After", "5")])
        case .unknownLanguage(let language, let installed):
            return APIError.validation([.init(pointer: "/lang",
                                              detail: "language '\(language)' is not installed; available: \(installed.joined(separator: ", "))")])
        case .invalidLanguageName(let name):
            return APIError.validation([.init(pointer: "/lang", detail: "invalid language name '\(name)'")])
        case .deadlineExceeded(let ms):
            return APIError(.unprocessableContent, "recognition did not finish within \(ms) ms; send less ink at once")
        case .invalidImage(_, _, let reason):
            return APIError(.unprocessableContent, "the ink cannot be rendered for recognition: \(reason)")
        default:
            return APIError(.internalServerError, "recognition failed")
        }
    }
}
