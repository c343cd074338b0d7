import Foundation
import HTTPServer
import Store

/// Strong entity tags for stickers and the conditional request headers (RFC 9110 §8.8.3, §13.1).
enum EntityTag {
    static func of(_ sticker: StickerRecord) -> String { "\"v\(sticker.version)\"" }

    /// A tag hashed from a response's content (SHA-256), for responses with no version of their own.
    static func ofContent(_ body: [UInt8]) -> String { "\"" + String(SHA256.hexDigest(body).prefix(32)) + "\"" }

    /// `If-Match`: when present, the stored sticker must carry one of the listed tags (or `*`);
    /// otherwise 412 and nothing changes.
    static func checkIfMatch(_ context: RequestContext, current: StickerRecord) throws(APIError) {
        guard let header = context.headers["if-match"] else { return }
        let tags = list(header)
        if let malformed = tags.first(where: { $0 != "*" && !isEntityTag($0) }) {
            // Not a stale copy but a malformed header (e.g. `v1` without its quotes): the condition
            // is false (412, RFC 9110 §13.1.1), and the answer says why instead of "the sticker has changed".
            throw APIError(.preconditionFailed, "If-Match: \(malformed) is not an entity tag; send the ETag exactly as it was given, "
                           + "quotes included (\(of(current)) for the current version)",
                           violations: [.init(pointer: "/header/If-Match", detail: "not an entity tag")],
                           headers: [("ETag", of(current))])
        }
        if tags.contains("*") || tags.contains(of(current)) { return }
        if tags.contains("W/" + of(current)) {
            // The current version, but weak (a compressing proxy weakens ETags): If-Match compares
            // strongly (RFC 9110 §13.1.1), so 412 — saying why, since fetching again would not help.
            throw APIError(.preconditionFailed, "If-Match: W/\(of(current)) is a weak tag, and If-Match needs the strong one: "
                           + "send \(of(current)) without W/ (a proxy that compresses answers may have weakened it)",
                           violations: [.init(pointer: "/header/If-Match", detail: "a weak entity tag")],
                           headers: [("ETag", of(current))])
        }
        throw APIError(.preconditionFailed, "the sticker has changed (it is at version \(current.version)); fetch it and retry",
                       headers: [("ETag", of(current))])
    }

    /// `If-None-Match` on a read: true when the client's copy is current (answer 304).
    static func isNotModified(_ context: RequestContext, current: StickerRecord) -> Bool {
        guard let header = context.headers["if-none-match"] else { return false }
        return matches(header, of(current))
    }

    /// Whether an `If-None-Match` value names `tag`, by weak comparison (§8.8.3.2: W/ prefixes
    /// are ignored), or is `*`.
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        let tags = list(ifNoneMatch).map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 }
        return tags.contains("*") || tags.contains(tag)
    }

    /// `"opaque"` or `W/"opaque"` (RFC 9110 §8.8.3): quotes around characters other than `"`.
    static func isEntityTag(_ tag: String) -> Bool {
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        return opaque.count >= 2 && opaque.first == "\"" && opaque.last == "\""
            && !opaque.dropFirst().dropLast().contains("\"")
    }

    private static func list(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A sticker response with its `ETag`.
    static func response(_ status: HTTPStatus, _ sticker: StickerRecord, extra: [(String, String)] = []) -> HTTPResponse {
        JSONBody.response(status, StickerJSON.sticker(sticker), headers: [("ETag", of(sticker))] + extra)
    }
}
