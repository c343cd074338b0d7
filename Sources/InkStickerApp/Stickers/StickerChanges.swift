import Foundation
import JSONKit
import Store

/// Writes that change stickers, each in one transaction with the event that records it.
struct StickerChanges: Sendable {
    let services: AppServices

    /// Loads the board's sticker (after authorising), checks `If-Match`, applies `change`, re-fits the
    /// frame around the same centre and stores the result with an `updated` (or `committed`) event.
    /// Returns the sticker unchanged, without a new version, when `change` altered nothing.
    func update(_ context: RequestContext,
                change: (inout StickerRecord) throws -> Void) throws -> StickerRecord {
        let result = try services.database.write { tx -> (StickerRecord, Bool) in
            let board = try BoardAccess.authorize(context, in: tx)
            let current = try Self.load(context, board: board, tx)
            try EntityTag.checkIfMatch(context, current: current)
            var next = current
            try change(&next)
            try services.layout.fit(&next)
            if next == current { return (current, false) }
            next.updatedAt = Timestamp.now()
            let stored = try tx.updateSticker(next, expectedVersion: current.version)
            try record(stored.state == .label && current.state == .field ? .committed : .updated, stored, tx)
            return (stored, true)
        }
        if result.1 { services.events.notify(boardId: result.0.boardId) }
        return result.0
    }

    /// Ends editing of one field: a label with the same centre and a fitted frame, or, when its text
    /// is empty or only whitespace, no sticker at all (like a text field that ends empty).
    enum CommitOutcome { case committed(StickerRecord), deleted, alreadyLabel(StickerRecord) }

    func commit(_ sticker: StickerRecord, _ tx: WriteTransaction, now: Int64) throws -> CommitOutcome {
        if sticker.state == .label { return .alreadyLabel(sticker) }
        if sticker.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            _ = try tx.deleteSticker(id: sticker.id, boardId: sticker.boardId, expectedVersion: sticker.version)
            try record(.deleted, sticker, tx)
            return .deleted
        }
        var label = sticker
        label.state = .label
        label.committedAt = now
        label.updatedAt = now
        try services.layout.fit(&label)
        let stored = try tx.updateSticker(label, expectedVersion: sticker.version)
        try record(.committed, stored, tx)
        return .committed(stored)
    }

    /// Appends the event for a change of `sticker`, with the sticker as its payload.
    func record(_ kind: EventRecord.Kind, _ sticker: StickerRecord, _ tx: WriteTransaction) throws {
        let payload = JSONWriter().string(StickerJSON.sticker(sticker))
        try tx.appendEvent(boardId: sticker.boardId, stickerId: sticker.id, type: kind, version: sticker.version,
                           payload: payload, createdAt: Timestamp.now())
    }

    /// The sticker named in the path, on this board, or 404.
    static func load(_ context: RequestContext, board: BoardRecord, _ tx: ReadTransaction) throws -> StickerRecord {
        let id = try context.parameter("stickerId")
        guard ResourceID.isPlausible(id), let sticker = try tx.sticker(id: id, boardId: board.id) else {
            throw APIError.notFound("sticker")
        }
        return sticker
    }
}
