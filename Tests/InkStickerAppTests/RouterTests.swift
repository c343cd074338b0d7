import HTTPServer
import Testing
@testable import InkStickerApp

/// Routing without a network: templates, path decoding and its refusals, query parameters.
@Suite struct RouterTests {
    static func router() -> Router {
        var builder = RouterBuilder()
        let ok = Execution.inline { _ in HTTPResponse(status: .ok) }
        builder.add(.get, "/v1/boards/{boardId}", ok)
        builder.add(.delete, "/v1/boards/{boardId}", ok)
        builder.add(.get, "/v1/boards/{boardId}/stickers/{stickerId}", ok)
        builder.add(.post, "/v1/boards", bodyLimit: 10, ok)
        return builder.freeze()
    }

    @Test func matchesTemplatesAndExtractsParameters() throws {
        let segments = try RequestPath.segments("/v1/boards/b_1/stickers/s%5F2")
        guard case .found(let route, let parameters) = Self.router().match(method: .get, segments: segments) else {
            Issue.record("no match")
            return
        }
        #expect(route.name == "GET /v1/boards/{boardId}/stickers/{stickerId}")
        #expect(parameters == ["boardId": "b_1", "stickerId": "s_2"])
    }

    @Test func headUsesGetAndWrongMethodListsAllowed() throws {
        let router = Self.router()
        let segments = try RequestPath.segments("/v1/boards/x")
        if case .found(let route, _) = router.match(method: .head, segments: segments) {
            #expect(route.method == .get)
        } else {
            Issue.record("HEAD should use the GET route")
        }
        guard case .methodNotAllowed(let allowed) = router.match(method: .post, segments: segments) else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == [.get, .head, .delete])
        guard case .notFound = router.match(method: .get, segments: try RequestPath.segments("/v2/x")) else {
            Issue.record("expected 404")
            return
        }
    }

    @Test(arguments: ["/a/%00/b", "/a/../b", "/a/%2e%2E/b", "/./x", "/a%2Fb", "/%zz", "/%C3%28"])
    func refusesDangerousPaths(_ path: String) {
        #expect(throws: APIError.self) { try RequestPath.segments(Substring(path)) }
    }

    @Test func bodyLimitIsKnownBeforeTheBody() {
        let router = Self.router()
        #expect(router.resolve(HTTPRequestHead(method: .post, target: "/v1/boards")).bodyLimit == 10)
        #expect(router.resolve(HTTPRequestHead(method: .get, target: "/v1/boards/x")).bodyLimit == nil)
    }

    @Test func queryParametersDecodeAndValidate() throws {
        let query = try QueryParameters("limit=20&rect=1%2C2,3,4&name=a+b&flag")
        #expect(try query.int("limit", in: 1...500) == 20)
        #expect(query["rect"] == "1,2,3,4")
        #expect(query["name"] == "a b")
        #expect(try query.flag("flag"))
        #expect(throws: APIError.self) { try QueryParameters("ink=yes").flag("ink") }
        #expect(throws: APIError.self) { try query.int("limit", in: 1...10) }
        #expect(throws: APIError.self) { try QueryParameters("a=%00") }
    }
}
