import Foundation
import HTTPServer
import Store

/// `Idempotency-Key` for sticker creation: a retried request with the same key, target (path and
/// query) and body gets the first response and creates nothing; the same key with another request
/// is refused (422).
struct Idempotency: Sendable {
    static let lifetimeMs: Int64 = 24 * 60 * 60 * 1000
    static let replayHeader = "Idempotent-Replayed"

    let key: String
    let requestHash: [UInt8]

    /// The key of the request, if it has one; 400 when malformed.
    static func of(_ context: RequestContext) throws(APIError) -> Idempotency? {
        guard let key = context.headers["idempotency-key"] else { return nil }
        guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw APIError(.badRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters",
                           violations: [.init(pointer: "/header/Idempotency-Key", detail: "expected 1 to 255 visible ASCII characters")])
        }
        var hasher = SHA256()
        hasher.update(Array(context.request.method.rawValue.utf8))
        hasher.update([0])
        // The whole target: an InkML request's options (target, charset, maxLength, style) are its query.
        hasher.update(Array(context.request.head.target.utf8))
        hasher.update([0])
        hasher.update(Array((context.headers["content-type"] ?? "").utf8))
        hasher.update([0])
        hasher.update(context.body)
        return Idempotency(key: key, requestHash: hasher.finalize())
    }

    /// The stored response for this key, or nil; 422 when the key was used with another request.
    func replay(_ record: IdempotencyRecord?) throws(APIError) -> HTTPResponse? {
        guard let record else { return nil }
        guard record.requestHash == requestHash else {
            throw APIError(.unprocessableContent, "this Idempotency-Key was already used with a different request",
                           violations: [.init(pointer: "/header/Idempotency-Key", detail: "reused with a different request")])
        }
        var headers = HTTPHeaders()
        for line in record.responseHeaders.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers.add(name: String(parts[0]), value: parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        headers.add(name: Self.replayHeader, value: "true")
        return HTTPResponse(status: HTTPStatus(code: record.status, reason: record.status == 201 ? "Created" : "OK"),
                            headers: headers, body: record.responseBody)
    }

    func record(boardId: String, response: HTTPResponse, now: Int64) -> IdempotencyRecord {
        let headers = response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        var body: [UInt8] = []
        if case .bytes(let bytes) = response.body { body = bytes }
        return IdempotencyRecord(boardId: boardId, key: key, requestHash: requestHash, status: response.status.code,
                                 responseBody: body, responseHeaders: headers, createdAt: now, expiresAt: now + Self.lifetimeMs)
    }
}
