import Foundation
import HTTPServer
import Ink
import JSONKit
import Store

/// Reading stickers: a board's list (filtered, paged), one sticker, and its ink.
enum StickerReadRoutes {
    static let defaultPageSize = 100
    static let maxPageSize = 500

    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        // Served from memory while the board is unchanged (ListingCache); read from the database otherwise.
        router.add(.get, "/v1/boards/{boardId}/stickers", .inlineElseBlocking({ context in
            guard let request = BoardRead(context), let query = try? ListingQuery(context.query),
                  let hit = services.listingCache.lookup(board: request.board, tokenHash: request.tokenHash, key: query.key) else { return nil }
            return listingResponse(hit.body, etag: hit.etag)
        }, { context in
            let ticket = services.listingCache.ticket()
            let (board, query, body, eventID) = try services.database.read { tx -> (BoardRecord, ListingQuery, [UInt8], Int64) in
                let (board, eventID) = try BoardAccess.authorizeWithLatestEvent(context, in: tx)
                // The query after the token: without one, every request is 401, whatever its query.
                let query = try ListingQuery(context.query)
                let page = try tx.listStickers(boardId: board.id, state: query.state, intersecting: query.rect,
                                               afterSeq: query.after, limit: query.limit)
                let body = JSONWriter.write(.object([
                    ("stickers", .array(page.stickers.map(StickerJSON.sticker))),
                    ("nextCursor", page.nextCursor.map { .string(String($0)) } ?? .null),
                ]))
                return (board, query, body, eventID)
            }
            // The latest event id versions the whole board (every change appends one).
            let etag = "\"e\(eventID)\""
            services.listingCache.store(body, etag: etag, board: board.id, tokenHash: board.tokenHash, key: query.key, ticket: ticket)
            return listingResponse(body, etag: etag)
        }))

        router.add(.get, "/v1/boards/{boardId}/stickers/{stickerId}", .blocking { context in
            let sticker = try services.database.read { tx in
                let board = try BoardAccess.authorize(context, in: tx)
                return try StickerChanges.load(context, board: board, tx)
            }
            if EntityTag.isNotModified(context, current: sticker) {
                var headers = HTTPHeaders()
                headers.add(name: "ETag", value: EntityTag.of(sticker))
                return HTTPResponse(status: .notModified, headers: headers)
            }
            return EntityTag.response(.ok, sticker)
        })

        router.add(.get, "/v1/boards/{boardId}/stickers/{stickerId}/ink", .blocking { context in
            let inks = try services.database.read { tx in
                let board = try BoardAccess.authorize(context, in: tx)
                let sticker = try StickerChanges.load(context, board: board, tx)
                return try tx.inks(stickerId: sticker.id)
            }
            var writings: [JSONValue] = []
            for ink in inks {
                let strokes = try InkCodec.decode(ink.strokes)
                writings.append(.object([
                    ("id", .string(ink.id)),
                    ("seq", .number(Double(ink.seq))),
                    ("createdAt", .string(Timestamps.iso8601(ink.createdAt))),
                    ("strokes", .array(strokes.map(InkJSON.stroke))),
                ]))
            }
            return JSONBody.response(.ok, .object([("inks", .array(writings))]))
        })
    }

    /// The listing (`If-None-Match` with its ETag: 304, as for every response, in `CachePolicy`).
    static func listingResponse(_ body: [UInt8], etag: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    /// `rect=x,y,width,height` with a non-negative size.
    static func parseRect(_ text: String) throws(APIError) -> StickerRecord.Rect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              [x, y, w, h].allSatisfy(\.isFinite), w >= 0, h >= 0 else {
            throw APIError(.badRequest, "query parameter 'rect' must be x,y,width,height with a non-negative size",
                           violations: [.init(pointer: "/query/rect", detail: "expected x,y,width,height")])
        }
        return StickerRecord.Rect(x: x, y: y, width: w, height: h)
    }
}

/// The query of a board's listing: `state`, `rect`, `after`, `limit`.
struct ListingQuery {
    var state: StickerRecord.State?
    var rect: StickerRecord.Rect?
    var after: Int64?
    var limit: Int

    init(_ query: QueryParameters) throws(APIError) {
        state = try query["state"].map { name throws(APIError) -> StickerRecord.State in
            guard let state = StickerRecord.State(rawValue: name) else {
                throw APIError(.badRequest, "query parameter 'state' must be field or label",
                               violations: [.init(pointer: "/query/state", detail: "expected field or label")])
            }
            return state
        }
        rect = try query["rect"].map(StickerReadRoutes.parseRect)
        after = try query["after"].map { text throws(APIError) -> Int64 in
            // Only what nextCursor gives (openapi.yaml): 1 to 18 decimal digits, no sign.
            guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let cursor = Int64(text) else {
                throw APIError(.badRequest, "query parameter 'after' must be a cursor from nextCursor",
                               violations: [.init(pointer: "/query/after", detail: "invalid cursor")])
            }
            return cursor
        }
        limit = try query.int("limit", in: 1...StickerReadRoutes.maxPageSize) ?? StickerReadRoutes.defaultPageSize
    }

    /// The same for every request that reads the same stickers.
    var key: String {
        "list|\(state?.rawValue ?? "")|\(rect.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "")|\(after ?? 0)|\(limit)"
    }
}

/// Strokes as JSON, in the same shape clients send them.
enum InkJSON {
    static func stroke(_ s: Stroke) -> JSONValue {
        var members: [(String, JSONValue)] = [("x", .numbers(s.x)), ("y", .numbers(s.y))]
        if let t = s.t { members.append(("t", .numbers(t))) }
        if let p = s.p { members.append(("p", .numbers(p))) }
        return .object(members)
    }
}
