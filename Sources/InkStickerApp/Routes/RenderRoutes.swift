import HTTPServer
import Ink
import OCR
import Store

/// Pictures: the board as SVG, and the exact images the recogniser saw for a sticker's ink as PNG.
enum RenderRoutes {
    static let maxStickers = 2_000

    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        // Served from memory while the board is unchanged (ListingCache); drawn from the database otherwise.
        router.add(.get, "/v1/boards/{boardId}/render.svg", .inlineElseBlocking({ context in
            guard let request = BoardRead(context), let withInk = try? context.query.flag("ink"),
                  let hit = services.listingCache.lookup(board: request.board, tokenHash: request.tokenHash, key: svgKey(ink: withInk)) else { return nil }
            return svgResponse(hit.body, etag: hit.etag)
        }, { context in
            let ticket = services.listingCache.ticket()
            let (board, withInk, stickers, inks) = try services.database.read {
                tx -> (BoardRecord, Bool, [StickerRecord], [String: [[Stroke]]]) in
                let board = try BoardAccess.authorize(context, in: tx)
                let withInk = try context.query.flag("ink")   // after the token, as every board request
                let stickers = try tx.listStickers(boardId: board.id, limit: min(maxStickers, services.database.configuration.maxPageSize)).stickers
                var inks: [String: [[Stroke]]] = [:]
                if withInk {
                    for sticker in stickers {
                        inks[sticker.id] = try tx.inks(stickerId: sticker.id).map { try InkCodec.decode($0.strokes) }
                    }
                }
                return (board, withInk, stickers, inks)
            }
            let svg = Array(BoardSVG(layout: services.layout).render(stickers, inks: inks).utf8)
            // Hashed once here, not on every answer (CachePolicy would hash a response without a tag).
            let etag = EntityTag.ofContent(svg)
            services.listingCache.store(svg, etag: etag, board: board.id, tokenHash: board.tokenHash, key: svgKey(ink: withInk), ticket: ticket)
            return svgResponse(svg, etag: etag)
        }))

        router.add(.get, "/v1/boards/{boardId}/stickers/{stickerId}/ink.png", .blocking { context in
            let writings = try services.database.read { tx -> [[Stroke]] in
                let board = try BoardAccess.authorize(context, in: tx)
                let sticker = try StickerChanges.load(context, board: board, tx)
                return try tx.inks(stickerId: sticker.id).map { try InkCodec.decode($0.strokes) }
            }
            // Each writing was recognised on its own: its images, in the order written, split
            // into lines as `lang` (the default language if absent) splits them.
            let language = context.query["lang"] ?? services.configuration.defaultLanguage
            guard LanguageName.isValid(language) else {
                throw APIError(.badRequest, "query parameter 'lang' must be a language name",
                               violations: [.init(pointer: "/query/lang", detail: "expected 1 to 64 letters, digits, '_' or '-'")])
            }
            return try png(of: writings.flatMap { services.recognizer.lineImages(for: $0, hint: .text, language: language) })
        })
    }

    static func svgKey(ink: Bool) -> String { ink ? "svg|ink" : "svg" }

    static func svgResponse(_ svg: [UInt8], etag: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Content-Type", value: "image/svg+xml; charset=utf-8")
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        return HTTPResponse(status: .ok, headers: headers, body: svg)
    }

    /// Line images stacked top to bottom, as one PNG.
    static func png(of images: [GrayImage]) throws -> HTTPResponse {
        guard let bytes = PNGEncoder.encode(GrayImage.stacked(images, gap: 4)) else {
            throw APIError(.internalServerError, "could not encode the image")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "image/png")
        return HTTPResponse(status: .ok, headers: headers, body: bytes)
    }
}
