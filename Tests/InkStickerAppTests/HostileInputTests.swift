import Foundation
import Glibc
import Testing
@testable import InkStickerApp

/// Hostile and malformed requests over real sockets: each gets its exact status with an
/// `application/problem+json` body (or, for odd but valid ink, a normal answer), refused input never
/// reaches a recogniser, and the process keeps serving `GET /healthz` afterwards.
@Suite(.serialized) struct HostileInputTests {
    /// A fresh server per case, so a failure names the request that caused it.
    @Test(arguments: HostileCase.all)
    func answersExactlyAndStaysUp(_ hostile: HostileCase) throws {
        let harness = try ServiceHarness(configure: HostileCase.configure)
        try hostile.run(on: harness)
    }

    /// Every case in a row against one process: damage must not accumulate.
    @Test func oneServerSurvivesTheWholeTable() throws {
        let harness = try ServiceHarness(configure: HostileCase.configure)
        for hostile in HostileCase.all { try hostile.run(on: harness, statusOnly: true) }
    }

    /// Requests the server answers wrongly today; each asserts the right answer.
    @Test(arguments: HostileCase.framingLimitCases)
    func framingLimitCases(_ hostile: HostileCase) throws {
        let harness = try ServiceHarness(configure: HostileCase.configure)
        try hostile.run(on: harness)
    }
}

/// One hostile request and what must come back.
struct HostileCase: Sendable, CustomTestStringConvertible {
    /// A board the request may address, created on the server under test.
    struct Board: Sendable { let id: String; let token: String }

    enum Expect: Sendable {
        /// An error with this status; the detail contains every string; `errors` names every pointer.
        case problem(Int, detail: [String] = [], pointers: [String] = [])
        /// A JSON answer with this status, checked by the closure (which returns what is wrong).
        case json(Int, @Sendable ([String: Any]) -> String?)
        /// 200 with a recognition, or 422 because recognition hit its deadline.
        case recognizedOrDeadline
    }

    let name: String
    let expect: Expect
    let bytes: @Sendable (Board) throws -> [UInt8]
    /// Least time the answer may take (a timeout must really be waited for).
    var atLeastSeconds = 0.0
    /// Most time the answer may take: refusals by size must not depend on how much work the ink would be.
    var atMostSeconds = 60.0
    /// A header the answer must carry, with a value prefix.
    var header: (String, String)?

    var testDescription: String { name }

    /// Short timeouts so 408 cases finish quickly; rate limits stay at their defaults.
    static let configure: @Sendable (inout AppConfiguration) -> Void = { c in
        c.server.headerTimeout = .milliseconds(1_000)
        c.server.bodyTimeout = .milliseconds(1_000)
    }

    func run(on harness: ServiceHarness, statusOnly: Bool = false) throws {
        let client = harness.client
        let created = try client.request("POST", "/v1/boards", json: ["title": "hostile"])
        let board = Board(id: created.json["id"] as? String ?? "", token: created.json["token"] as? String ?? "")
        let jobsBefore = try Self.ocrJobs(client)
        let started = Date()
        let response = try RawExchange.send(try bytes(board), port: harness.port)
        let seconds = Date().timeIntervalSince(started)
        var failures: [String] = []
        if statusOnly {
            if !expectedStatuses.contains(response.status) { failures.append("status \(response.status), expected \(expectedStatuses)") }
        } else {
            failures = check(response)
            if seconds < atLeastSeconds { failures.append("answered after \(seconds) s, before the \(atLeastSeconds) s timeout") }
            if seconds > atMostSeconds { failures.append("answered after \(seconds) s; at most \(atMostSeconds) s allowed") }
            if response.status >= 400, case .problem = expect, try Self.ocrJobs(client) != jobsBefore {
                failures.append("a refused request reached a recogniser")
            }
        }
        for failure in failures {
            Issue.record("\(name): \(failure)\n\(response.status) \(String(decoding: response.body.prefix(400), as: UTF8.self))")
        }
        let health = try client.request("GET", "/healthz")
        #expect(health.status == 200, "GET /healthz after \(name)")
        #expect(health.json["status"] as? String == "ok", "GET /healthz after \(name)")
    }

    var expectedStatuses: [Int] {
        switch expect {
        case .problem(let status, _, _), .json(let status, _): [status]
        case .recognizedOrDeadline: [200, 422]
        }
    }

    func check(_ r: RawResponse) -> [String] {
        var failures: [String] = []
        if let (name, prefix) = header, r.headers[name.lowercased()]?.hasPrefix(prefix) != true {
            failures.append("header \(name) is \(r.headers[name.lowercased()] ?? "missing"), expected \(prefix)…")
        }
        switch expect {
        case .problem(let status, let detail, let pointers):
            failures += Self.problemFailures(r, status: status, detail: detail, pointers: pointers)
        case .json(let status, let validate):
            if r.status != status { failures.append("status \(r.status), expected \(status)") }
            if r.headers["content-type"] != "application/json" { failures.append("Content-Type \(r.headers["content-type"] ?? "-")") }
            if let problem = validate(r.json) { failures.append(problem) }
        case .recognizedOrDeadline:
            if r.status == 200 {
                if !(r.json["text"] is String) { failures.append("no text in the recognition") }
            } else {
                failures += Self.problemFailures(r, status: 422, detail: ["did not finish within"], pointers: [])
            }
        }
        return failures
    }

    /// RFC 9457 members with the values this API documents.
    static func problemFailures(_ r: RawResponse, status: Int, detail: [String], pointers: [String]) -> [String] {
        var failures: [String] = []
        if r.status != status { failures.append("status \(r.status), expected \(status)") }
        if r.headers["content-type"] != "application/problem+json" {
            failures.append("Content-Type \(r.headers["content-type"] ?? "-"), expected application/problem+json")
        }
        let json = r.json
        if json["type"] as? String != problemType(status) { failures.append("type \(json["type"] ?? "-"), expected \(problemType(status))") }
        if json["title"] as? String != reasons[status] { failures.append("title \(json["title"] ?? "-"), expected \(reasons[status] ?? "?")") }
        if json["status"] as? Int != status { failures.append("status member \(json["status"] ?? "-")") }
        let text = json["detail"] as? String ?? ""
        if text.isEmpty { failures.append("no detail") }
        for part in detail where !text.contains(part) { failures.append("detail '\(text)' does not mention '\(part)'") }
        let named = (json["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        for pointer in pointers where !named.contains(pointer) { failures.append("errors \(named) do not name \(pointer)") }
        return failures
    }

    /// RFC 9110 §15 reason phrases, which RFC 9457 §4.2 asks `title` to repeat.
    static let reasons = [
        400: "Bad Request", 401: "Unauthorized", 405: "Method Not Allowed", 408: "Request Timeout",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 422: "Unprocessable Content",
        431: "Request Header Fields Too Large", 501: "Not Implemented", 505: "HTTP Version Not Supported",
    ]

    /// The API's problem types; statuses without one of their own use `about:blank` (RFC 9457 §4.2.1).
    static func problemType(_ status: Int) -> String {
        let own = [400: "bad-request", 401: "unauthorized", 405: "method-not-allowed", 413: "content-too-large",
                   415: "unsupported-media-type", 422: "validation"]
        return own[status].map { "/problems/" + $0 } ?? "about:blank"
    }

    /// Recognition jobs started so far, from `/metrics`.
    static func ocrJobs(_ client: TestClient) throws -> Int {
        try client.request("GET", "/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix("ocr_jobs_total{") }
            .reduce(0) { $0 + (Int($1.split(separator: " ").last ?? "") ?? 0) }
    }
}

// MARK: - The table

extension HostileCase {
    static func http(_ text: String) -> @Sendable (Board) -> [UInt8] { { _ in Array(text.utf8) } }

    /// A request with Host, `Connection: close` and a Content-Length for the body.
    static func request(_ method: String, _ target: String, body: [UInt8]? = nil, type: String? = "application/json",
                        auth: Bool = false, extra: String = "") -> @Sendable (Board) -> [UInt8] {
        { board in
            var head = "\(method) \(target.replacingOccurrences(of: "{board}", with: board.id)) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            if let type { head += "Content-Type: \(type)\r\n" }
            if auth { head += "Authorization: Bearer \(board.token)\r\n" }
            if let body { head += "Content-Length: \(body.count)\r\n" }
            return Array((head + extra + "\r\n").utf8) + (body ?? [])
        }
    }

    static func recognize(_ json: String) -> @Sendable (Board) -> [UInt8] { request("POST", "/v1/recognize", body: Array(json.utf8)) }
    static func recognize(_ object: Any) -> @Sendable (Board) -> [UInt8] {
        request("POST", "/v1/recognize", body: [UInt8]((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
    }
    static func createSticker(_ json: String) -> @Sendable (Board) -> [UInt8] {
        request("POST", "/v1/boards/{board}/stickers", body: Array(json.utf8), auth: true)
    }

    static let dash = #"{"strokes":[{"x":[0,10],"y":[0,10]}]"#
    static let million = "[" + Array(repeating: "1", count: 1_000_000).joined(separator: ",") + "]"
    static let post = "POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"

    static func text(_ json: [String: Any]) -> String? {
        json["text"] is String ? nil : "no text member in \(json)"
    }

    static let all: [HostileCase] = [
        // JSON that is not JSON.
        .init(name: "malformed JSON", expect: .problem(400, detail: ["malformed JSON"]), bytes: recognize(#"{"strokes": ["#)),
        .init(name: "empty JSON body", expect: .problem(400, detail: ["end of input"]), bytes: recognize("")),
        .init(name: "NaN literal", expect: .problem(400, detail: ["malformed JSON"]), bytes: recognize(#"{"strokes":[{"x":[NaN],"y":[1]}]}"#)),
        .init(name: "Infinity literal", expect: .problem(400, detail: ["malformed JSON"]), bytes: recognize(#"{"strokes":[{"x":[-Infinity],"y":[1]}]}"#)),
        .init(name: "1e999 overflows a double", expect: .problem(400, detail: ["out of range"]), bytes: recognize(#"{"strokes":[{"x":[1e999],"y":[1]}]}"#)),
        .init(name: "10,000 nested arrays", expect: .problem(400, detail: ["nesting"]),
              bytes: recognize(#"{"strokes":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}")),
        .init(name: "10,000 nested objects", expect: .problem(400, detail: ["nesting"]),
              bytes: recognize(String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000))),
        .init(name: "invalid UTF-8 in a string", expect: .problem(400, detail: ["UTF-8"]),
              bytes: request("POST", "/v1/recognize", body: Array(#"{"strokes":[],"lang":""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8))),
        .init(name: "lone surrogate escape", expect: .problem(400, detail: ["surrogate"]), bytes: recognize(#"{"strokes":[],"lang":"\ud800"}"#)),
        .init(name: "duplicate member", expect: .problem(400, detail: ["duplicate"]), bytes: recognize(#"{"strokes":[],"strokes":[]}"#)),
        .init(name: "top level is an array", expect: .problem(422, pointers: [""]), bytes: recognize("[1,2]")),
        // Wrong shapes and values.
        .init(name: "strokes is a string", expect: .problem(422, pointers: ["/strokes"]), bytes: recognize(#"{"strokes":"abc"}"#)),
        .init(name: "numbers as strings", expect: .problem(422, pointers: ["/strokes/0/x/0"]), bytes: recognize(#"{"strokes":[{"x":["1","2"],"y":[1,2]}]}"#)),
        .init(name: "stroke is a number", expect: .problem(422, pointers: ["/strokes/0"]), bytes: recognize(#"{"strokes":[5]}"#)),
        .init(name: "mismatched x/y lengths", expect: .problem(422, pointers: ["/strokes/0/y"]), bytes: recognize(#"{"strokes":[{"x":[1,2,3],"y":[1,2]}]}"#)),
        .init(name: "stroke without points", expect: .problem(422, pointers: ["/strokes/0/x"]), bytes: recognize(#"{"strokes":[{"x":[],"y":[]}]}"#)),
        .init(name: "coordinate 1e300", expect: .problem(422, pointers: ["/strokes/0/x/0"]), bytes: recognize(#"{"strokes":[{"x":[1e300,1],"y":[1,2]}]}"#)),
        .init(name: "time going backwards", expect: .problem(422, pointers: ["/strokes/0/t/1"]), bytes: recognize(#"{"strokes":[{"x":[1,2],"y":[1,2],"t":[5,4]}]}"#)),
        .init(name: "pressure above 1", expect: .problem(422, pointers: ["/strokes/0/p/0"]), bytes: recognize(#"{"strokes":[{"x":[1],"y":[1],"p":[2]}]}"#)),
        .init(name: "unknown member", expect: .problem(422, pointers: ["/colour"]), bytes: recognize(dash + #","colour":1}"#)),
        .init(name: "unknown lang lists the installed ones", expect: .problem(422, detail: ["klingon", "available:", "eng"], pointers: ["/lang"]),
              bytes: recognize(dash + #","lang":"klingon"}"#)),
        .init(name: "lang that is a path", expect: .problem(422, pointers: ["/lang"]), bytes: recognize(dash + #","lang":"../../etc/passwd"}"#)),
        .init(name: "unknown charset hint", expect: .problem(422, detail: ["emoji"], pointers: ["/hints/charset"]),
              bytes: recognize(dash + #","hints":{"charset":"emoji"}}"#)),
        .init(name: "unknown sticker charset", expect: .problem(422, detail: ["emoji"], pointers: ["/charset"]),
              bytes: createSticker(dash + #","charset":"emoji"}"#)),
        // Sizes.
        .init(name: "1,000,000 points", expect: .problem(413, pointers: ["/strokes/0/x", "/strokes"]),
              bytes: recognize(#"{"strokes":[{"x":"# + million + #","y":"# + million + "}]}"), atMostSeconds: 10),
        .init(name: "1,001 strokes", expect: .problem(413, detail: ["1001 strokes"], pointers: ["/strokes"]),
              bytes: recognize(#"{"strokes":["# + Array(repeating: #"{"x":[1],"y":[1]}"#, count: 1_001).joined(separator: ",") + "]}")),
        .init(name: "10 MB body on POST /v1/boards", expect: .problem(413),
              bytes: request("POST", "/v1/boards", body: Array(#"{"title":""#.utf8) + Array(repeating: 0x61, count: 10 << 20) + Array(#""}"#.utf8))),
        .init(name: "100 KB body on POST /v1/boards", expect: .problem(413, detail: ["65536"]),
              bytes: request("POST", "/v1/boards", body: Array(#"{"title":""#.utf8) + Array(repeating: 0x61, count: 100 << 10) + Array(#""}"#.utf8))),
        // Only the ink routes take the 4 MiB limit: a body elsewhere, or on a path no route has, gets the small one.
        .init(name: "100 KB body on GET /v1/boards/{board}/stickers", expect: .problem(413, detail: ["65536"]),
              bytes: request("GET", "/v1/boards/{board}/stickers", body: Array(repeating: 0x61, count: 100 << 10), auth: true)),
        .init(name: "100 KB body on a path no route has", expect: .problem(413, detail: ["65536"]),
              bytes: request("POST", "/v1/nothing-here", body: Array(repeating: 0x61, count: 100 << 10))),
        .init(name: "1 MB chunked body on POST /v1/boards", expect: .problem(413, detail: ["65536"]),
              bytes: { _ in Array("POST /v1/boards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n".utf8)
                  + Array(repeating: 0x20, count: 1 << 20) + Array("\r\n0\r\n\r\n".utf8) }),
        // Odd but valid ink.
        .init(name: "zero strokes recognized", expect: .json(200) { $0["text"] as? String == "" ? nil : "text is \($0["text"] ?? "-"), expected empty" },
              bytes: recognize(#"{"strokes":[]}"#)),
        .init(name: "zero strokes for a sticker", expect: .problem(422, pointers: ["/strokes"]), bytes: createSticker(#"{"strokes":[]}"#)),
        .init(name: "one-point strokes", expect: .json(200, text), bytes: recognize(#"{"strokes":[{"x":[10],"y":[10]},{"x":[20],"y":[12]}]}"#)),
        .init(name: "flat ink", expect: .json(200, text),
              bytes: recognize(["strokes": [["x": (0..<200).map { Double($0) * 3 }, "y": Array(repeating: 50.0, count: 200)],
                                            ["x": [700.0, 800], "y": [50.0, 50]]]])),
        .init(name: "100-word single line", expect: .recognizedOrDeadline, bytes: { _ in try hundredWordLine() }),
        // Media type and authorisation.
        .init(name: "text/plain body", expect: .problem(415, detail: ["text/plain"]), bytes: request("POST", "/v1/recognize", body: Array(#"{"strokes":[]}"#.utf8), type: "text/plain")),
        .init(name: "no Content-Type", expect: .problem(415), bytes: request("POST", "/v1/recognize", body: Array(#"{"strokes":[]}"#.utf8), type: nil)),
        .init(name: "wrong bearer token", expect: .problem(401), bytes: request("GET", "/v1/boards/{board}/stickers", type: nil, extra: "Authorization: Bearer ist_wrong\r\n"),
              header: ("WWW-Authenticate", "Bearer")),
        .init(name: "Basic credentials", expect: .problem(401), bytes: request("GET", "/v1/boards/{board}", type: nil, extra: "Authorization: Basic Zm9vOmJhcg==\r\n"),
              header: ("WWW-Authenticate", "Bearer")),
        .init(name: "GET on a POST route", expect: .problem(405), bytes: request("GET", "/v1/recognize", type: nil), header: ("Allow", "POST")),
        // HTTP framing and syntax (RFC 9112).
        .init(name: "CR inside a header value", expect: .problem(400, detail: ["header value"]), bytes: http(post + "X-A: a\rb\r\nContent-Length: 2\r\n\r\n{}")),
        .init(name: "LF inside a header value", expect: .problem(400), bytes: http(post + "X-A: a\nb\r\nContent-Length: 2\r\n\r\n{}")),
        .init(name: "NUL inside a header value", expect: .problem(400, detail: ["header value"]), bytes: http(post + "X-A: a\u{0}b\r\nContent-Length: 2\r\n\r\n{}")),
        .init(name: "space inside a header name", expect: .problem(400, detail: ["header name"]), bytes: http(post + "X Bad: 1\r\nContent-Length: 2\r\n\r\n{}")),
        .init(name: "space before the colon", expect: .problem(400, detail: ["header name"]), bytes: http("GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n")),
        .init(name: "obsolete line folding", expect: .problem(400, detail: ["folding"]), bytes: http("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n")),
        .init(name: "100 KB request line", expect: .problem(414), bytes: http("GET /" + String(repeating: "a", count: 100 << 10) + " HTTP/1.1\r\nHost: x\r\n\r\n")),
        .init(name: "40 KB of headers", expect: .problem(431),
              bytes: http("GET /healthz HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Pad: " + String(repeating: "a", count: 1_000) + "\r\n", count: 40) + "\r\n")),
        .init(name: "150 header fields", expect: .problem(431), bytes: http("GET /healthz HTTP/1.1\r\nHost: x\r\n" + (0..<150).map { "X-H\($0): 1\r\n" }.joined() + "\r\n")),
        .init(name: "Content-Length with Transfer-Encoding", expect: .problem(400), bytes: http(post + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n")),
        .init(name: "two different Content-Lengths", expect: .problem(400), bytes: http(post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n{}    ")),
        .init(name: "negative Content-Length", expect: .problem(400), bytes: http(post + "Content-Length: -1\r\n\r\n")),
        .init(name: "bad chunk size", expect: .problem(400, detail: ["chunk size"]), bytes: http(post + "Transfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n")),
        .init(name: "transfer coding other than chunked", expect: .problem(400), bytes: http(post + "Transfer-Encoding: gzip\r\n\r\n0\r\n\r\n")),
        .init(name: "body shorter than its Content-Length", expect: .problem(408), bytes: http(post + "Content-Length: 100\r\n\r\n{\"strokes\":"), atLeastSeconds: 0.9),
        .init(name: "head that never ends", expect: .problem(408), bytes: http("GET /healthz HTTP/1.1\r\nHo"), atLeastSeconds: 0.9),
        .init(name: "missing Host", expect: .problem(400, detail: ["Host"]), bytes: http("GET /healthz HTTP/1.1\r\n\r\n")),
        .init(name: "two Hosts", expect: .problem(400, detail: ["Host"]), bytes: http("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")),
        .init(name: "HTTP/2.0 request line", expect: .problem(505), bytes: http("GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n")),
        .init(name: "unknown method", expect: .problem(501, detail: ["BREW"]), bytes: http("BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
        .init(name: "TRACE", expect: .problem(501), bytes: http("TRACE /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
        .init(name: "method that is not a token", expect: .problem(400), bytes: http("G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
        // Paths.
        .init(name: "%00 in the path", expect: .problem(400, detail: ["NUL"]), bytes: request("GET", "/v1/boards/b_%00abc", type: nil)),
        .init(name: "../ in the path", expect: .problem(400, detail: [".."]), bytes: request("GET", "/v1/../healthz", type: nil)),
        .init(name: "encoded dot segment", expect: .problem(400, detail: [".."]), bytes: request("GET", "/v1/%2e%2e/healthz", type: nil)),
        .init(name: "encoded slash", expect: .problem(400, detail: ["slash"]), bytes: request("GET", "/v1/boards/a%2Fb", type: nil)),
        .init(name: "broken percent-encoding", expect: .problem(400, detail: ["percent"]), bytes: request("GET", "/v1/%zz", type: nil)),
        .init(name: "invalid UTF-8 in the path", expect: .problem(400, detail: ["UTF-8"]), bytes: request("GET", "/v1/%ff", type: nil)),
        .init(name: "raw byte 0xFF in the target", expect: .problem(400), bytes: { _ in Array("GET /".utf8) + [0xFF] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8) }),
    ]

    /// Cases the server answers wrongly today (see the report); they assert the right answer.
    static let framingLimitCases: [HostileCase] = [
        // Any transfer coding but a lone `chunked` is refused and the connection closed (request smuggling):
        // 501 for a coding the server does not decode before a final `chunked` (RFC 9112 §6.1), 400 when
        // `chunked` is not last, so the body's end is unknown (§6.3).
        .init(name: "gzip before chunked is refused as not implemented", expect: .problem(501), bytes: http(post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")),
        .init(name: "chunked before gzip is refused as ambiguous framing", expect: .problem(400), bytes: http(post + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n")),
        // The route's own limit is known while the head is parsed, so the 413 names it.
        .init(name: "413 on POST /v1/boards names its 65536-byte limit", expect: .problem(413, detail: ["65536"]),
              bytes: request("POST", "/v1/boards", body: Array(#"{"title":""#.utf8) + Array(repeating: 0x61, count: 10 << 20) + Array(#""}"#.utf8))),
    ]

    /// About 100 cursive words of the fixtures side by side on one baseline (fewer than 1,000 strokes).
    static func hundredWordLine() throws -> [UInt8] {
        let text = try String(contentsOfFile: TestPaths.fixtures + "/script.jsonl", encoding: .utf8)
        var strokes: [[String: [Double]]] = []
        var words = 0
        var left = 0.0
        // The fixture file holds fewer than 100 such words: it is walked again until there are 100.
        let lines = text.split(separator: "\n")
        for line in lines + lines where words < 100 {
            guard let sample = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let sampleText = sample["text"] as? String, !sampleText.contains("\n"),
                  let sampleStrokes = sample["strokes"] as? [[String: Any]] else { continue }
            func numbers(_ value: Any?) -> [Double] { (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }
            let xs = sampleStrokes.flatMap { numbers($0["x"]) }, ys = sampleStrokes.flatMap { numbers($0["y"]) }
            guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(), maxY - minY <= 200 else { continue }
            for stroke in sampleStrokes {
                strokes.append(["x": numbers(stroke["x"]).map { $0 - minX + left },
                                "y": numbers(stroke["y"]).map { $0 - (minY + maxY) / 2 + 500 }])
            }
            left += maxX - minX + 60
            words += sampleText.split(separator: " ").count
        }
        guard words >= 100 else { throw HarnessError("the fixtures gave only \(words) words") }
        let body = try JSONSerialization.data(withJSONObject: ["strokes": strokes])
        return request("POST", "/v1/recognize", body: [UInt8](body))(Board(id: "", token: ""))
    }
}

// MARK: - A client that sends and reads at once

struct RawResponse {
    var status = 0
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
}

/// Sends raw bytes while reading, so a server that answers early (413, 414, 431) and closes is
/// heard even though the request was not fully sent; returns the first response.
enum RawExchange {
    static func send(_ bytes: [UInt8], port: Int, timeoutSeconds: Double = 30) throws -> RawResponse {
        let fd = try TestSocket.connect(port: port)
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var sent = 0
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN) | (sent < bytes.count ? Int16(POLLOUT) : 0), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            if pfd.revents & Int16(POLLOUT) != 0, sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, min($0.count, 65536), Int32(MSG_NOSIGNAL)) }
                if n > 0 { sent += n } else if errno != EAGAIN { sent = bytes.count }  // the server stopped reading
            }
            if pfd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 {
                    received += buffer[0..<n]
                    if let response = parse(received) { return response }
                } else if n == 0 || errno != EAGAIN {
                    break
                }
            }
        }
        guard let response = parse(received) else {
            throw HarnessError("no complete response (\(received.count) bytes: \(String(decoding: received.prefix(200), as: UTF8.self)))")
        }
        return response
    }

    /// The first response once its head and Content-Length body are complete.
    static func parse(_ data: [UInt8]) -> RawResponse? {
        guard data.count >= 4,
              let end = (0...(data.count - 4)).first(where: { data[$0] == 13 && data[$0 + 1] == 10 && data[$0 + 2] == 13 && data[$0 + 3] == 10 })
        else { return nil }
        var lines = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        var response = RawResponse()
        response.status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            response.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(response.headers["content-length"] ?? "0") ?? 0
        guard data.count >= end + 4 + length else { return nil }
        response.body = Array(data[(end + 4)..<(end + 4 + length)])
        return response
    }
}
