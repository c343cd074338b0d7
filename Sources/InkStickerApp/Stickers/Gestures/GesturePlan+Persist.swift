import HTTPServer
import Store

extension GesturePlan {
    /// Step 5 for a gesture (`persist`): in one write transaction of SQL only, the idempotency
    /// record of a concurrent retry, the sticker's change at the version the plan read (or its
    /// deletion), the undo (replacing the sticker's earlier one), the event and the idempotency
    /// record. No ink is stored: a gesture is no writing.
    func persist(idempotency: Idempotency?, _ services: AppServices) throws -> StickerPlan.Persisted {
        try services.database.write { tx -> StickerPlan.Persisted in
            if let idempotency,
               let replay = try idempotency.replay(try tx.idempotencyRecord(boardId: boardID, key: idempotency.key, now: now)) {
                return .replayed(replay)
            }
            guard try tx.board(id: boardID) != nil else { throw BoardAccess.denied }
            let sticker: StickerRecord
            do {
                switch write {
                case .update(let next, let expected):
                    try tx.updateSticker(next, expectedVersion: expected)
                    sticker = next
                case .delete(let current):
                    guard try tx.deleteSticker(id: current.id, boardId: boardID, expectedVersion: current.version) else {
                        return .stale
                    }
                    sticker = current
                }
            } catch let error where StickerChanges.isStale(error) {
                return .stale  // the text changed under the pen: classify again
            }
            try tx.putUndo(undo, keepPerBoard: GestureUndo.maxPerBoard)
            try tx.appendEvent(boardId: boardID, stickerId: sticker.id, type: event, version: sticker.version,
                               payload: eventPayload, createdAt: now)
            if let idempotencyRecord { try tx.putIdempotencyRecord(idempotencyRecord) }
            return .stored
        }
    }
}
