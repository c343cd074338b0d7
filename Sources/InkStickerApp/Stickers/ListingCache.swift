import Locking

/// Serialized sticker listings, reused until the board changes.
///
/// Every change to a board's stickers appends an event in the same transaction, so the board's
/// latest event id is a version of everything a listing shows: a cached body is served only while
/// that id is unchanged, read in the same snapshot as the authorisation. Bounded in entries and bytes.
final class ListingCache: Sendable {
    private struct Entry {
        var eventID: Int64
        var body: [UInt8]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private let state = Lock(State())
    let maxEntries: Int
    let maxBytes: Int

    init(maxEntries: Int = 1_024, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    func body(for key: String, eventID: Int64) -> [UInt8]? {
        state.withLock { s in
            s.clock += 1
            guard var entry = s.entries[key], entry.eventID == eventID else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            return entry.body
        }
    }

    func store(_ body: [UInt8], for key: String, eventID: Int64) {
        guard body.count <= maxBytes / 8 else { return }
        state.withLock { s in
            s.clock += 1
            if let old = s.entries[key] { s.bytes -= old.body.count }
            s.entries[key] = Entry(eventID: eventID, body: body, lastUse: s.clock)
            s.bytes += body.count
            while s.entries.count > maxEntries || s.bytes > maxBytes {
                guard let oldest = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                s.bytes -= oldest.value.body.count
                s.entries[oldest.key] = nil
            }
        }
    }

    var counts: (hits: Int, misses: Int, entries: Int) {
        state.withLock { ($0.hits, $0.misses, $0.entries.count) }
    }
}
