import HTTPServer
import Ink
import JSONKit
import OCR
import Store
import TextLayout

/// An error that has an API answer. Every error the routes can meet conforms here, in this one
/// file, so there is one place where errors become problem+json; anything else is unexpected:
/// logged and answered 500 without internals (`AppServices.errorResponse`).
protocol ProblemConvertible: Error {
    /// The answer, or nil when this case is an internal failure (answered 500).
    var problem: APIError? { get }
}

enum ErrorMapping {
    static func apiError(_ error: any Error) -> APIError? {
        (error as? any ProblemConvertible)?.problem
    }

    static func ocrError(_ error: OCRError) -> APIError { error.problem ?? APIError(.internalServerError, "recognition failed") }
}

extension APIError: ProblemConvertible {
    var problem: APIError? { self }
}

extension StoreError: ProblemConvertible {
    var problem: APIError? {
        switch self {
        case .notFound(let entity, _):
            .notFound(entity.rawValue)
        case .versionConflict:
            APIError(.preconditionFailed, "the sticker changed concurrently; fetch it and retry")
        case .labelIsFinal:
            APIError(.conflict, "the sticker is a label; labels never go back to fields")
        case .closed, .readerUnavailable, .unavailable:
            APIError(.serviceUnavailable, "the database is not available; retry shortly", headers: [("Retry-After", "1")])
        default:
            nil
        }
    }
}

extension SQLiteError: ProblemConvertible {
    var problem: APIError? {
        code == .busy || code == .locked
            ? APIError(.serviceUnavailable, "the database is busy; retry shortly", headers: [("Retry-After", "1")]) : nil
    }
}

extension PostgresError: ProblemConvertible {
    var problem: APIError? {
        isUnavailable || isTimeout || isRetryable
            ? APIError(.serviceUnavailable, "the database is busy; retry shortly", headers: [("Retry-After", "1")]) : nil
    }
}

extension OCRError: ProblemConvertible {
    var problem: APIError? {
        switch self {
        case .overloaded(let seconds):
            APIError(.serviceUnavailable, "all recognisers are busy; retry shortly", headers: [("Retry-After", String(max(1, seconds)))])
        case .shuttingDown:
            APIError(.serviceUnavailable, "the server is shutting down", headers: [("Retry-After", "5")])
        case .unknownLanguage(let language, let installed):
            APIError.validation([.init(pointer: "/lang",
                                       detail: "language '\(language)' is not installed; available: \(installed.joined(separator: ", "))")])
        case .invalidLanguageName(let name):
            APIError.validation([.init(pointer: "/lang", detail: "invalid language name '\(name)'")])
        case .deadlineExceeded(let ms):
            APIError(.unprocessableContent, "recognition did not finish within \(ms) ms; send less ink at once")
        case .invalidImage(_, _, let reason):
            APIError(.unprocessableContent, "the ink cannot be rendered for recognition: \(reason)")
        default:
            nil
        }
    }
}

extension JSONParseError: ProblemConvertible {
    var problem: APIError? { APIError(.badRequest, "malformed JSON: \(message)") }
}

extension InkMLError: ProblemConvertible {
    var problem: APIError? {
        let detail = "InkML line \(line), column \(column): \(self.detail)"
        return switch kind {
        case .malformed: APIError(.badRequest, detail)
        case .tooLarge: APIError(.contentTooLarge, detail)
        case .invalid: APIError.validation([.init(pointer: "/strokes", detail: detail)])
        }
    }
}

extension InkDecodingError: ProblemConvertible {
    /// Only `.tooLarge` is answered on its own (413); invalid strokes are collected with the
    /// request's other violations (422).
    var problem: APIError? {
        let violations = violations.map { APIError.Violation(pointer: $0.pointer.description, detail: $0.detail) }
        return kind == .tooLarge ? APIError(.contentTooLarge, description, violations: violations) : .validation(violations)
    }
}

extension TextLayoutError: ProblemConvertible {
    var problem: APIError? {
        switch self {
        case .unknownFamily: APIError.validation([.init(pointer: "/font/family", detail: description)])
        case .invalidArgument, .textTooLong: APIError(.unprocessableContent, "the text cannot be laid out: \(description)")
        default: nil
        }
    }
}

extension TextInputError: ProblemConvertible {
    var problem: APIError? { APIError.validation([.init(pointer: pointer() ?? "/ops", detail: description)]) }
}
