import Foundation
import HTTPServer
import JSONKit
import Store

/// Taking back what a gesture deleted: `POST /v1/boards/{boardId}/undos/{undoId}`.
///
/// Every gesture that deletes keeps an undo for ``lifetimeMs`` (one hour), in the database, so it
/// survives a restart and works on every node. A sticker keeps the undo of its last gesture only,
/// and a board its ``maxPerBoard`` newest. An undo applies while what the gesture left is still
/// there: the field at the version the gesture made (any later edit, by key, PATCH or more ink,
/// makes it 409), or, for a deleted sticker, no sticker with its id. It restores the sticker exactly
/// as it was before the gesture (text, frame, recognised text, style, its writings, its creation
/// order) as a new version, with an event (`updated`, or `created` for a sticker put back), so
/// ETags and event ids only move forward. Used once: the undo is then gone.
enum GestureUndo {
    /// How long an undo stays available: one hour.
    static let lifetimeMs: Int64 = 60 * 60 * 1000
    /// The most undos a board keeps (its newest).
    static let maxPerBoard = 50

    static func href(_ undo: UndoRecord) -> String { "/v1/boards/\(undo.boardId)/undos/\(undo.id)" }

    /// `{"id", "href", "method", "expiresAt"}`: how a client undoes.
    static func link(_ undo: UndoRecord) -> JSONValue {
        .object([
            ("id", .string(undo.id)),
            ("href", .string(href(undo))),
            ("method", .string("POST")),
            ("expiresAt", .string(Timestamps.iso8601(undo.expiresAt))),
        ])
    }

    enum Outcome {
        case restored(StickerRecord, recreated: Bool)
        case replayed(HTTPResponse)
    }

    /// Applies the undo named in the path: plans from a read (the undo and the sticker as they are
    /// now), writes at the version read, plans again when another write got there first.
    static func apply(_ context: RequestContext, _ services: AppServices) throws -> HTTPResponse {
        let idempotency = try Idempotency.of(context)
        for _ in 0..<StickerChanges.maxAttempts {
            let (board, found, current, stored) = try services.database.read { tx in
                let board = try BoardAccess.authorize(context, in: tx)
                let stored = try idempotency.flatMap { try tx.idempotencyRecord(boardId: board.id, key: $0.key, now: Timestamp.now()) }
                let id = try context.parameter("undoId")
                let undo = ResourceID.isPlausible(id) ? try tx.undo(id: id, boardId: board.id, now: Timestamp.now()) : nil
                return (board, undo, try undo.flatMap { try tx.sticker(id: $0.stickerId, boardId: board.id) }, stored)
            }
            // A retry of an undo that was done answers as the first time (the undo itself is gone by then).
            if let idempotency, let replay = try idempotency.replay(stored) { return replay }
            guard let undo = found else {
                throw APIError(.notFound, "no such undo: it was used, it expired (undos last an hour), or a later gesture on the same sticker replaced it")
            }
            let now = Timestamp.now()
            var restored = undo.sticker
            restored.updatedAt = now
            let recreated: Bool
            switch undo.kind {
            case .words:
                guard let current, current.version == undo.version, current.state == .field else {
                    throw APIError(.conflict, "the sticker changed after the gesture; its undo no longer applies",
                                   headers: current.map { [("ETag", EntityTag.of($0))] } ?? [])
                }
                restored.version = current.version + 1
                recreated = false
            case .sticker:
                guard current == nil else {
                    throw APIError(.conflict, "a sticker with this id exists again; the undo no longer applies")
                }
                restored.version = undo.version + 1
                recreated = true
            }
            let response = EntityTag.response(recreated ? .created : .ok, restored,
                                              extra: recreated ? [("Location", StickerPlan.location(restored))] : [])
            let payload = JSONWriter().string(StickerJSON.sticker(restored))
            let record = idempotency?.record(boardId: board.id, response: response, now: now)
            do {
                let replayed = try services.database.write { tx -> HTTPResponse? in
                    if let idempotency,
                       let replay = try idempotency.replay(try tx.idempotencyRecord(boardId: board.id, key: idempotency.key, now: now)) {
                        return replay
                    }
                    guard try tx.deleteUndo(id: undo.id, boardId: board.id) else { throw StickerChanges.Stale() }
                    if recreated {
                        try tx.restoreSticker(restored, inks: undo.inks)
                    } else {
                        try tx.updateSticker(restored, expectedVersion: undo.version)
                    }
                    try tx.appendEvent(boardId: board.id, stickerId: restored.id, type: recreated ? .created : .updated,
                                       version: restored.version, payload: payload, createdAt: now)
                    if let record { try tx.putIdempotencyRecord(record) }
                    return nil
                }
                if let replayed { return replayed }
                services.events.notify(boardId: board.id)
                return response
            } catch let error where StickerChanges.isStale(error) || isTaken(error) {
                continue  // the undo was used or the sticker changed meanwhile: read again
            }
        }
        throw APIError(.serviceUnavailable, "the sticker kept changing while this undo was stored; retry",
                       headers: [("Retry-After", "1")])
    }

    private static func isTaken(_ error: any Error) -> Bool {
        if case StoreError.alreadyExists(.sticker, _) = error { return true }
        return false
    }

    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        router.add(.post, "/v1/boards/{boardId}/undos/{undoId}", .blocking { context in
            try apply(context, services)
        })
    }
}
