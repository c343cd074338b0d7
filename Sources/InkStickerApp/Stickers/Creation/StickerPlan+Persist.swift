import HTTPServer
import Store

extension StickerPlan {
    enum Persisted {
        /// Stored: answer with the plan's response.
        case stored
        /// A concurrent request with the same idempotency key finished first: its answer.
        case replayed(HTTPResponse)
        /// The field changed, or a field appeared under the ink, after the plan was made: lay out again.
        case stale
    }

    /// Step 5 of creating a sticker (`persist`): the plan's rows in one write transaction, and
    /// only SQL in it (everything else was computed in step 4): the idempotency record of a
    /// concurrent retry, the board, the sticker (insert, or update at the version the plan read),
    /// the ink, the event and the idempotency record.
    func persist(idempotency: Idempotency?, _ services: AppServices) throws -> Persisted {
        try services.database.write { tx -> Persisted in
            if let idempotency,
               let replay = try idempotency.replay(try tx.idempotencyRecord(boardId: boardID, key: idempotency.key, now: now)) {
                return .replayed(replay)
            }
            guard try tx.board(id: boardID) != nil else { throw BoardAccess.denied }
            let seq: Int64
            switch write {
            case .insert(let sticker):
                if let emptyAt, try !tx.fields(boardId: boardID, containing: emptyAt).isEmpty { return .stale }
                try tx.insertSticker(sticker)
                seq = 1
            case .update(let sticker, let expectedVersion):
                do {
                    try tx.updateSticker(sticker, expectedVersion: expectedVersion)
                } catch let error where StickerChanges.isStale(error) {
                    return .stale  // the field changed or went away: lay out again
                }
                seq = try tx.nextInkSeq(stickerId: sticker.id)
                // Every writing is kept with its field: a field takes a bounded number of them.
                let limit = services.configuration.maxWritingsPerSticker
                if seq > Int64(limit) {
                    throw APIError.validation([.init(pointer: "/target",
                                                     detail: "the field already holds \(limit) writings; end its editing or write beside it")])
                }
            }
            try tx.insertInk(InkRecord(id: ResourceID.make(prefix: "i_"), stickerId: sticker.id, boardId: boardID,
                                       seq: seq, strokes: ink, createdAt: now))
            try tx.appendEvent(boardId: boardID, stickerId: sticker.id, type: event, version: sticker.version,
                               payload: eventPayload, createdAt: now)
            if let idempotencyRecord { try tx.putIdempotencyRecord(idempotencyRecord) }
            return .stored
        }
    }
}
