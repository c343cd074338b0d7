import CSystem
import Foundation
import HTTPServer
import Locking
import Store

/// Token buckets by client key (remote address, board token), for ink posts and new boards.
///
/// Each key refills at `rate` tokens per second up to `burst`. A request takes one token or is told
/// how long to wait (429 with `Retry-After`). The table is bounded: full buckets are dropped first,
/// so an attacker cycling through keys cannot grow memory.
final class RateLimiter: Sendable {
    struct Limit: Sendable, Equatable {
        var rate: Double
        var burst: Double
        static let off = Limit(rate: 0, burst: 0)
        var isOff: Bool { rate <= 0 }
    }

    private struct Bucket {
        var tokens: Double
        var updated: UInt64
    }

    let limit: Limit
    let maxKeys: Int
    private let buckets = Lock<[String: Bucket]>([:])

    init(limit: Limit, maxKeys: Int = 100_000) {
        self.limit = limit
        self.maxKeys = maxKeys
    }

    /// Takes a token for `key`; nil when allowed, else the seconds to wait.
    func acquire(_ key: String, now: UInt64 = csys_monotonic_ns()) -> Int? {
        guard !limit.isOff else { return nil }
        return buckets.withLock { table -> Int? in
            var bucket = table[key] ?? Bucket(tokens: limit.burst, updated: now)
            // The clock is read before the lock: another event loop may have stored a later time
            // meanwhile. No time has passed for this request then (a wrapped difference refilled
            // the bucket, and several loops let through several times the rate).
            bucket.tokens = min(limit.burst, bucket.tokens + Self.seconds(from: bucket.updated, to: now) * limit.rate)
            bucket.updated = max(bucket.updated, now)
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                table[key] = bucket
                if table.count > maxKeys { prune(&table, now: now) }
                return nil
            }
            table[key] = bucket
            return max(1, Int(((1 - bucket.tokens) / limit.rate).rounded(.up)))
        }
    }

    /// Seconds from `start` to `end` of the monotonic clock; none when `end` is the earlier.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        end > start ? Double(end - start) / 1e9 : 0
    }

    /// Drops buckets that have refilled completely (they behave exactly like absent ones).
    private func prune(_ table: inout [String: Bucket], now: UInt64) {
        table = table.filter { _, bucket in
            bucket.tokens + Self.seconds(from: bucket.updated, to: now) * limit.rate < limit.burst
        }
        if table.count > maxKeys { table.removeAll() }
    }
}

/// The request limits: ink posts per client address and per board token, and new boards per
/// client address (a board costs no token to make, and every board is kept until deleted).
struct RequestRateLimits: Sendable {
    let perAddress: RateLimiter
    let perToken: RateLimiter
    /// Reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`).
    var trustedProxies: Set<String> = []
    /// `POST /v1/boards` per client address.
    var boardsPerAddress = RateLimiter(limit: .off)

    /// 429 when either ink bucket is empty.
    func check(_ context: RequestContext) throws(APIError) {
        var wait = perAddress.acquire("a:" + clientAddress(context.request))
        if wait == nil, let token = BoardAccess.bearerToken(context) {
            // Keyed by a hash so tokens are not kept in memory in the clear.
            wait = perToken.acquire("t:" + SHA256.hexDigest(Array(token.utf8)))
        }
        if let wait {
            throw APIError(.tooManyRequests, "too many ink requests; retry in \(wait) s", headers: [("Retry-After", String(wait))])
        }
    }

    /// 429 when the client's board bucket is empty.
    func checkBoardCreation(_ context: RequestContext) throws(APIError) {
        if let wait = boardsPerAddress.acquire("b:" + clientAddress(context.request)) {
            throw APIError(.tooManyRequests, "too many new boards from this address; retry in \(wait) s",
                           headers: [("Retry-After", String(wait))])
        }
    }

    /// The peer, or behind a trusted proxy the address it says the request came from: the
    /// rightmost `X-Forwarded-For` entry that is not itself a trusted proxy (entries to its left
    /// are the client's to write, and not believed).
    func clientAddress(_ request: HTTPRequest) -> String {
        guard trustedProxies.contains(request.remoteAddress) else { return request.remoteAddress }
        let forwarded = request.headers.values("x-forwarded-for").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return forwarded.last { !trustedProxies.contains($0) } ?? forwarded.first ?? request.remoteAddress
    }
}
