import HTTPServer
import JSONKit
import Store

/// Editing stickers: PATCH, key input, commit, end editing, delete, clear.
enum StickerEditRoutes {
    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        let changes = StickerChanges(services: services)

        router.add(.patch, "/v1/boards/{boardId}/stickers/{stickerId}", .blocking { context in
            // Parsed before the write transaction (the single writer is not held for it), but its
            // errors are only raised after the board's token was checked: an outsider learns
            // nothing from validation.
            let parsed = Result { try JSONBody.object(context) }
            let sticker = try changes.update(context) { sticker throws in
                let body = try parsed.get()
                var collector = FieldCollector()
                collector.record(body.unknownMemberViolations(allowed: ["text", "font", "style", "maxLength", "charset"], at: .root))
                StickerAppearance.apply(body, to: &sticker.look, collector: &collector)
                let text = collector.collect { () throws(FieldViolation) in try body.optional("text", as: String.self, at: .root) } ?? nil
                if !collector.isEmpty { throw APIError(FieldViolations(collector.violations)) }
                if let text {
                    guard sticker.state == .field else {
                        throw APIError(.conflict, "the sticker is a label; its text is final (style and font can still change)")
                    }
                    try StickerText.validate(text, rules: StickerText.rules(of: sticker), pointer: "/text")
                    sticker.text = text
                } else if sticker.state == .field, body["maxLength"] != nil || body["charset"] != nil {
                    // New rules hold for the text a field keeps too: a digits field never reads
                    // "ab", nor more characters than its maxLength. A label's text is final, and
                    // its rules no longer govern any editing.
                    try StickerText.validateKept(sticker.text, rules: StickerText.rules(of: sticker))
                }
            }
            return EntityTag.response(.ok, sticker)
        })

        router.add(.post, "/v1/boards/{boardId}/stickers/{stickerId}/input", .blocking { context in
            let parsed = Result { try StickerText.decodeOps(try JSONBody.object(context)) }
            let sticker = try changes.update(context) { sticker throws in
                let ops = try parsed.get()
                guard sticker.state == .field else {
                    throw APIError(.conflict, "the sticker is a label; key input only edits fields")
                }
                sticker.text = try TextInput.apply(ops, to: sticker.text, rules: StickerText.rules(of: sticker))
            }
            return EntityTag.response(.ok, sticker)
        })

        router.add(.post, "/v1/boards/{boardId}/stickers/{stickerId}/commit", .blocking { context in
            switch try changes.commit(context) {
            case .committed(let label), .alreadyLabel(let label):
                return EntityTag.response(.ok, label)
            case .deleted:
                return HTTPResponse(status: .noContent)
            }
        })

        router.add(.post, "/v1/boards/{boardId}/end-editing", .blocking { context in
            let (committed, deleted) = try changes.endEditing(context)
            return JSONBody.response(.ok, .object([("committed", .number(Double(committed))), ("deleted", .number(Double(deleted)))]))
        })

        router.add(.delete, "/v1/boards/{boardId}/stickers/{stickerId}", .blocking { context in
            _ = try changes.delete(context)
            return HTTPResponse(status: .noContent)
        })

        router.add(.delete, "/v1/boards/{boardId}/stickers", .blocking { context in
            let (count, boardID) = try services.database.write { tx -> (Int, String) in
                let board = try BoardAccess.authorize(context, in: tx)
                let count = try tx.deleteAllStickers(boardId: board.id)
                // What a gesture deleted before does not come back onto the cleared board.
                try tx.deleteUndos(boardId: board.id)
                let payload = JSONWriter().string(.object([("boardId", .string(board.id)), ("deleted", .number(Double(count)))]))
                try tx.appendEvent(boardId: board.id, stickerId: nil, type: .cleared, version: nil, payload: payload,
                                   createdAt: Timestamp.now())
                return (count, board.id)
            }
            services.events.notify(boardId: boardID)
            return JSONBody.response(.ok, .object([("deleted", .number(Double(count)))]))
        })
    }
}
