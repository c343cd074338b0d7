import Foundation
import HTTPServer
import Testing
@testable import InkStickerApp

@Suite struct RateLimitTests {
    @Test func bucketRefillsAtItsRateUpToItsBurst() {
        let limiter = RateLimiter(limit: .init(rate: 2, burst: 3))
        let t0: UInt64 = 1_000_000_000
        #expect(limiter.acquire("k", now: t0) == nil)
        #expect(limiter.acquire("k", now: t0) == nil)
        #expect(limiter.acquire("k", now: t0) == nil)
        #expect(limiter.acquire("k", now: t0) == 1, "empty: wait for the next token")
        #expect(limiter.acquire("other", now: t0) == nil, "keys are independent")
        #expect(limiter.acquire("k", now: t0 + 500_000_000) == nil, "half a second refills one token at 2/s")
        #expect(limiter.acquire("k", now: t0 + 500_000_000) != nil)
        #expect(limiter.acquire("k", now: t0 + 100_000_000_000) == nil, "long idle refills to the burst only")
        #expect(limiter.acquire("k", now: t0 + 100_000_000_000) == nil)
        #expect(limiter.acquire("k", now: t0 + 100_000_000_000) == nil)
        #expect(limiter.acquire("k", now: t0 + 100_000_000_000) != nil)
    }

    /// Two event loops read the clock before taking the lock: a request can arrive with a time
    /// earlier than the one the bucket last stored. No time has passed for it (before, the
    /// difference wrapped around and refilled the bucket).
    @Test func aTimeEarlierThanTheBucketsRefillsNothing() {
        let limiter = RateLimiter(limit: .init(rate: 1, burst: 1))
        let t0: UInt64 = 5_000_000_000
        #expect(limiter.acquire("k", now: t0 + 1) == nil)
        #expect(limiter.acquire("k", now: t0) != nil)
        #expect(limiter.acquire("k", now: t0 + 2) != nil, "the bucket's time did not move back")
        #expect(limiter.acquire("k", now: t0 + 1_000_000_001) == nil)
    }

    /// Behind a trusted reverse proxy every client has its own bucket: the rightmost
    /// `X-Forwarded-For` entry that is not a trusted proxy. Anyone else's header is not believed.
    @Test func behindATrustedProxyEachForwardedClientHasItsOwnBucket() throws {
        let app = try InProcessApp(readings: ["milk"]) { configuration in
            configuration.inkRatePerAddress = (rate: 0.001, burst: 1)
            configuration.inkRatePerToken = (rate: 0, burst: 0)
            configuration.trustedProxies = ["127.0.0.1"]
        }
        let ink: [String: Any] = ["strokes": [["x": [1.0, 2.0], "y": [1.0, 2.0]]]]
        let post = { (forwarded: String) in
            try app.request(.post, "/v1/recognize", json: ink, headers: ["X-Forwarded-For": forwarded]).status
        }
        #expect(try post("203.0.113.7") == 200)
        #expect(try post("198.51.100.9") == 200, "another client behind the same proxy")
        #expect(try post("203.0.113.7") == 429)
        // A client cannot pick a fresh bucket by writing the header itself: its own entry is to the left.
        #expect(try post("192.0.2.1, 203.0.113.7") == 429)
        // A peer that is not a trusted proxy is the client, whatever it says.
        let untrusted = RequestRateLimits(perAddress: RateLimiter(limit: .off), perToken: RateLimiter(limit: .off), trustedProxies: ["10.0.0.2"])
        var headers = HTTPHeaders()
        headers.add(name: "X-Forwarded-For", value: "203.0.113.7")
        let request = HTTPRequest(head: HTTPRequestHead(method: .post, target: "/", headers: headers), remoteAddress: "198.51.100.1")
        #expect(untrusted.clientAddress(request) == "198.51.100.1")
    }

    @Test func offLimitNeverRefuses() {
        let limiter = RateLimiter(limit: .off)
        for _ in 0..<1000 { #expect(limiter.acquire("k") == nil) }
    }

    @Test func tableStaysBoundedUnderKeyChurn() {
        let limiter = RateLimiter(limit: .init(rate: 1000, burst: 1), maxKeys: 100)
        for i in 0..<10_000 { _ = limiter.acquire("k\(i)", now: UInt64(i) * 1_000_000_000) }
        #expect(limiter.acquire("fresh", now: 20_000_000_000_000) == nil)
    }

    @Test func inkPostsOverTheLimitGet429WithRetryAfter() throws {
        let harness = try ServiceHarness { $0.inkRatePerToken = (rate: 0.01, burst: 2) }
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let board = try client.request("POST", "/v1/boards", json: [:])
        let token = board.json["token"] as? String ?? ""
        let path = "/v1/boards/\(board.json["id"] as? String ?? "")/stickers"
        let statuses = try (0..<3).map { _ in try client.request("POST", path, json: ["strokes": sample.strokes, "target": "new"], token: token) }
        #expect(statuses.map(\.status) == [201, 201, 429])
        #expect(Int(statuses[2].header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(statuses[2].json["status"] as? Int == 429)
        // Reads are not limited.
        #expect(try client.request("GET", path, token: token).status == 200)
    }

    /// A board costs no token to make and is kept until deleted: new boards are limited per
    /// address (by default 1 a second after a burst of 100), each client behind a trusted proxy
    /// on its own.
    @Test func newBoardsAreLimitedPerAddress() throws {
        let app = try InProcessApp { configuration in
            configuration.boardRatePerAddress = (rate: 0.001, burst: 2)
            configuration.trustedProxies = ["127.0.0.1"]
        }
        let create = { (forwarded: String) in
            try app.request(.post, "/v1/boards", json: ["title": "t"], headers: ["X-Forwarded-For": forwarded])
        }
        #expect(try create("203.0.113.7").status == 201)
        #expect(try create("203.0.113.7").status == 201)
        let refused = try create("203.0.113.7")
        #expect(refused.status == 429 && Int(refused.header("Retry-After") ?? "") ?? 0 >= 1, "\(refused.text)")
        #expect(try create("198.51.100.9").status == 201, "another client behind the same proxy")
        #expect(AppConfiguration().boardRatePerAddress == (rate: 1, burst: 100))
    }

    @Test func recognizeIsLimitedPerAddress() throws {
        let harness = try ServiceHarness { $0.inkRatePerAddress = (rate: 0.01, burst: 1) }
        let client = harness.client
        let ink: [String: Any] = ["strokes": [["x": [0, 10], "y": [0, 10]]]]
        #expect(try client.request("POST", "/v1/recognize", json: ink).status == 200)
        #expect(try client.request("POST", "/v1/recognize", json: ink).status == 429)
    }
}
