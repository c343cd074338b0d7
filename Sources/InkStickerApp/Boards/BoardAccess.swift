import Foundation
import HTTPServer
import Store

/// Object-level authorisation: every `/v1/boards/{boardId}/...` request must carry that board's token.
enum BoardAccess {
    /// The same answer whether the board is missing or the token is wrong, so the response never
    /// reveals which boards exist.
    static let denied = APIError(.unauthorized, "a valid bearer token for this board is required",
                                 headers: [("WWW-Authenticate", "Bearer realm=\"inksticker\"")])

    /// The bearer token of the request, if well-formed (RFC 6750 §2.1).
    static func bearerToken(_ context: RequestContext) -> String? {
        guard let value = context.headers["authorization"] else { return nil }
        let parts = value.utf8.split(separator: UInt8(ascii: " "), maxSplits: 1)
        guard parts.count == 2, parts[0].count == 6,
              zip(parts[0], "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        // Spaces and tabs around the token (every byte of a header value is visible ASCII, space or tab).
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = parts[1].firstIndex(where: { !isBlank($0) }),
              let last = parts[1].lastIndex(where: { !isBlank($0) }) else { return nil }
        let token = parts[1][first...last]
        guard token.count <= 256 else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// Loads the board named in the path and checks the token against it.
    static func authorize(_ context: RequestContext, in transaction: ReadTransaction) throws -> BoardRecord {
        try authorize(context) { try transaction.board(id: $0) }
    }

    /// `authorize`, with the id of the board's newest event read in the same statement.
    static func authorizeWithLatestEvent(_ context: RequestContext, in transaction: ReadTransaction) throws -> (BoardRecord, Int64) {
        var latest: Int64 = 0
        let board = try authorize(context) { id in
            try transaction.boardAndLatestEvent(id: id).map { found in
                latest = found.latestEventId
                return found.board
            }
        }
        return (board, latest)
    }

    private static func authorize(_ context: RequestContext, load: (String) throws -> BoardRecord?) throws -> BoardRecord {
        let boardID = try context.parameter("boardId")
        guard let token = bearerToken(context), ResourceID.isPlausible(boardID) else { throw denied }
        let presented = BoardToken.hash(token)
        guard let board = try load(boardID) else {
            // Compare anyway so a missing board costs the same as a wrong token.
            _ = BoardToken.constantTimeEquals(presented, presented)
            throw denied
        }
        guard BoardToken.constantTimeEquals(presented, board.tokenHash) else { throw denied }
        if let queryError = context.queryError { throw queryError }
        return board
    }
}

/// What a board read needs before it may be answered from memory: a well-formed request with a
/// bearer token for a plausible board id. Whether the token is right, the cache says (it keeps
/// the hash of the token that read each body); anything else goes to the database.
struct BoardRead {
    let board: String
    let tokenHash: [UInt8]

    init?(_ context: RequestContext) {
        guard context.queryError == nil, let board = try? context.parameter("boardId"), ResourceID.isPlausible(board),
              let token = BoardAccess.bearerToken(context) else { return nil }
        self.board = board
        self.tokenHash = BoardToken.hash(token)
    }
}
