import Locking

/// Board reads (a sticker listing, the board's SVG) kept serialized in memory and served without
/// touching the database until the board changes.
///
/// A body is stored with the hash of the token that read it and its ETag. While a write
/// transaction of this node runs on a board, the board's reads go to the database, and the board
/// is invalidated once the transaction has ended, before its response is sent; an event of
/// another node invalidates it when the notification reaches this node (PostgreSQL), and while
/// the listener is away nothing is served (every board is invalidated when it is back). So a node never serves a board older than its own writes,
/// nor older than another node's event once that reached it.
///
/// A read takes a ``Ticket`` before its database snapshot and may store its result only if the
/// board was not invalidated since: a snapshot taken before a write committed can never be stored
/// after that write's invalidation. Bounded in entries and bytes (least recently used go first).
final class ListingCache: Sendable {
    struct Hit {
        let body: [UInt8]
        let etag: String
    }

    /// The moment a read started, taken before its snapshot.
    struct Ticket: Sendable {
        fileprivate let stamp: UInt64
    }

    private struct Entry {
        var etag: String
        var body: [UInt8]
        var lastUse: UInt64
    }

    private struct Board {
        var tokenHash: [UInt8]
        var entries: [String: Entry] = [:]
    }

    private struct State {
        var boards: [String: Board] = [:]
        /// Write transactions of this node running on each board: its reads are not served or kept.
        var writing: [String: Int] = [:]
        /// When each board was last invalidated (a stamp of `clock`).
        var invalidated: [String: UInt64] = [:]
        /// Invalidations no longer remembered board by board: every board counts as invalidated then.
        var floor: UInt64 = 0
        var clock: UInt64 = 0
        var entryCount = 0
        var bytes = 0
        var hits = 0
        var misses = 0
        /// False while changes made elsewhere might not reach this node (PostgreSQL's listener is
        /// not connected): nothing is served or kept.
        var isFollowing = true

        func lastInvalidation(of board: String) -> UInt64 { max(invalidated[board] ?? 0, floor) }
    }

    private let state = Lock(State())
    let maxEntries: Int
    let maxBytes: Int
    /// Boards whose invalidation stamps are remembered one by one before they are folded into one.
    private let maxRemembered: Int

    init(maxEntries: Int = 1_024, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.maxRemembered = max(4 * maxEntries, 1_024)
    }

    /// Taken before the database read whose result ``store(_:etag:board:tokenHash:key:ticket:)`` may keep.
    func ticket() -> Ticket {
        state.withLock { s in Ticket(stamp: s.clock) }
    }

    /// The body stored for `key` of `board`, if it was read with the same token (its SHA-256 hash)
    /// and the board has not changed since.
    func lookup(board: String, tokenHash: [UInt8], key: String) -> Hit? {
        state.withLock { s in
            s.clock += 1
            guard s.isFollowing, s.writing[board] == nil, let stored = s.boards[board], BoardToken.constantTimeEquals(stored.tokenHash, tokenHash),
                  let entry = stored.entries[key] else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            s.boards[board]?.entries[key]?.lastUse = s.clock   // in place: no copy of the board's entries
            return Hit(body: entry.body, etag: entry.etag)
        }
    }

    /// Keeps `body` unless the board was invalidated after `ticket` was taken.
    func store(_ body: [UInt8], etag: String, board: String, tokenHash: [UInt8], key: String, ticket: Ticket) {
        guard body.count <= maxBytes / 8 else { return }
        state.withLock { s in
            guard s.isFollowing, s.writing[board] == nil, ticket.stamp >= s.lastInvalidation(of: board) else { return }
            s.clock += 1
            if s.boards[board].map({ $0.tokenHash != tokenHash }) == true { Self.drop(board, &s) }
            if s.boards[board] == nil { s.boards[board] = Board(tokenHash: tokenHash) }
            if let old = s.boards[board]?.entries[key] {
                s.bytes -= old.body.count
                s.entryCount -= 1
            }
            s.boards[board]?.entries[key] = Entry(etag: etag, body: body, lastUse: s.clock)
            s.bytes += body.count
            s.entryCount += 1
            if s.entryCount > maxEntries || s.bytes > maxBytes { evict(&s) }
        }
    }

    /// The board changed (or is gone): drop what is stored for it and refuse reads begun before now.
    func invalidate(board: String) {
        state.withLock { invalidate(board, &$0) }
    }

    /// A write transaction of this node is about to change the board: until it has ended, the
    /// board's reads go to the database (one that saw the write there must not then get an older
    /// listing from here).
    func writeBegan(board: String) {
        state.withLock { s in
            s.writing[board, default: 0] += 1
            invalidate(board, &s)
        }
    }

    /// The write transactions of `writeBegan` have ended (committed or not).
    func writeEnded(boards: Set<String>) {
        state.withLock { s in
            for board in boards {
                if let running = s.writing[board] { s.writing[board] = running > 1 ? running - 1 : nil }
                invalidate(board, &s)
            }
        }
    }

    private func invalidate(_ board: String, _ s: inout State) {
        s.clock += 1
        Self.drop(board, &s)
        if s.invalidated.count >= maxRemembered {
            s.floor = s.clock
            s.invalidated = [:]
        } else {
            s.invalidated[board] = s.clock
        }
    }

    /// Any board may have changed: drop everything.
    func invalidateAll() {
        state.withLock { Self.dropAll(&$0) }
    }

    /// Whether changes made on other nodes reach this one (on PostgreSQL, while its listener is
    /// connected). Off, nothing is served or kept; either way, everything kept so far is dropped
    /// and every read begun before is refused.
    func follow(_ following: Bool) {
        state.withLock { s in
            Self.dropAll(&s)
            s.isFollowing = following
        }
    }

    private static func dropAll(_ s: inout State) {
        s.clock += 1
        s.floor = s.clock
        s.invalidated = [:]
        s.boards = [:]
        s.entryCount = 0
        s.bytes = 0
    }

    private static func drop(_ board: String, _ s: inout State) {
        guard let dropped = s.boards.removeValue(forKey: board) else { return }
        s.entryCount -= dropped.entries.count
        s.bytes -= dropped.entries.values.reduce(0) { $0 + $1.body.count }
    }

    /// Drops the least recently used entries until at most 7/8 of each bound is used: one sort
    /// for many stores, not a scan of every entry for each.
    private func evict(_ s: inout State) {
        var byAge: [(lastUse: UInt64, board: String, key: String, bytes: Int)] = []
        byAge.reserveCapacity(s.entryCount)
        for (board, stored) in s.boards {
            for (key, entry) in stored.entries { byAge.append((entry.lastUse, board, key, entry.body.count)) }
        }
        byAge.sort { $0.lastUse < $1.lastUse }
        for oldest in byAge {
            guard s.entryCount > maxEntries * 7 / 8 || s.bytes > maxBytes / 8 * 7 else { break }
            s.boards[oldest.board]?.entries[oldest.key] = nil
            if s.boards[oldest.board]?.entries.isEmpty == true { s.boards[oldest.board] = nil }
            s.bytes -= oldest.bytes
            s.entryCount -= 1
        }
    }

    /// Whether bodies are served and kept now (see `follow(_:)`).
    var isFollowing: Bool { state.withLock { $0.isFollowing } }

    var counts: (hits: Int, misses: Int, entries: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.entryCount, $0.bytes) }
    }
}
