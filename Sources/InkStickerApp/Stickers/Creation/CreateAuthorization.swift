import HTTPServer
import Store

/// Step 1 of creating a sticker (`authorize`): the board's token, then the idempotency key. A
/// retry of a request that already succeeded is answered with its first response, without
/// recognising anything again.
enum CreateAuthorization {
    enum Outcome {
        /// The board the sticker goes on.
        case proceed(BoardRecord)
        /// The stored answer of an earlier request with the same key and body.
        case replay(HTTPResponse)
    }

    static func check(_ context: RequestContext, idempotency: Idempotency?, _ services: AppServices) throws -> Outcome {
        let (board, stored) = try services.database.read { tx -> (BoardRecord, IdempotencyRecord?) in
            let board = try BoardAccess.authorize(context, in: tx)
            let stored = try idempotency.flatMap { try tx.idempotencyRecord(boardId: board.id, key: $0.key, now: Timestamp.now()) }
            return (board, stored)
        }
        if let idempotency, let replay = try idempotency.replay(stored) { return .replay(replay) }
        return .proceed(board)
    }
}
