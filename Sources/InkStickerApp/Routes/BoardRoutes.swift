import HTTPServer
import JSONKit
import Store

/// `POST /v1/boards`, `GET` and `DELETE /v1/boards/{boardId}`.
enum BoardRoutes {
    static let maxTitleCharacters = 200

    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        router.add(.post, "/v1/boards", .blocking { context in
            try services.rateLimits.checkBoardCreation(context)
            let body = try JSONBody.object(context, allowEmpty: true)
            var collector = FieldCollector()
            collector.record(body.unknownMemberViolations(allowed: ["title"], at: .root))
            let title = collector.collect { () throws(FieldViolation) in try body.optional("title", as: String.self, at: .root) } ?? nil
            if let title, title.count > maxTitleCharacters {
                collector.record(FieldViolation(pointer: JSONPointer.root.appending("title"), detail: "at most \(maxTitleCharacters) characters"))
            }
            if let title, title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                collector.record(FieldViolation(pointer: JSONPointer.root.appending("title"), detail: "no control characters (line breaks, tabs, NUL)"))
            }
            if !collector.isEmpty { throw APIError(FieldViolations(collector.violations)) }
            let token = BoardToken.generate()
            let board = BoardRecord(id: ResourceID.make(prefix: "b_"), title: title ?? "", tokenHash: BoardToken.hash(token),
                                    createdAt: Timestamp.now())
            try services.database.write { try $0.insertBoard(board) }
            return JSONBody.response(.created, StickerJSON.board(board, token: token),
                                     headers: [("Location", "/v1/boards/\(board.id)"), ("Cache-Control", "no-store")])
        })
        router.add(.get, "/v1/boards/{boardId}", .blocking { context in
            let (board, counts) = try services.database.read { tx in
                let board = try BoardAccess.authorize(context, in: tx)
                return (board, try tx.stickerCounts(boardId: board.id))
            }
            return JSONBody.response(.ok, StickerJSON.board(board, counts: counts))
        })
        router.add(.delete, "/v1/boards/{boardId}", .blocking { context in
            try services.database.write { tx in
                let board = try BoardAccess.authorize(context, in: tx)
                _ = try tx.deleteBoard(id: board.id)
            }
            services.events.boardDeleted(try context.parameter("boardId"))
            return HTTPResponse(status: .noContent)
        })
    }
}
