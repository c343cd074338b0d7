import Testing
@testable import JSONKit

@Suite struct FieldDecodingTests {
    private let body: JSONObject = [
        "title": "Groceries", "count": 3, "ratio": 0.5, "flag": true, "half": 1.5, "xs": [1, 2.5],
        "nothing": .null, "name": 7,
    ]
    private let at = JSONPointer.root.appending("sticker")

    @Test func requireReturnsTypedValues() throws {
        #expect(try body.require("title", as: String.self, at: at) == "Groceries")
        #expect(try body.require("count", as: Int.self, at: at) == 3)
        #expect(try body.require("ratio", as: Double.self, at: at) == 0.5)
        #expect(try body.require("flag", as: Bool.self, at: at) == true)
        #expect(try body.require("xs", as: [Double].self, at: at) == [1, 2.5])
    }

    @Test func violationsCarryPointerAndDetail() {
        #expect(throws: FieldViolation(pointer: at.appending("missing"), detail: "missing required member")) {
            try body.require("missing", as: String.self, at: at)
        }
        #expect(throws: FieldViolation(pointer: at.appending("name"), detail: "expected string, found number 7")) {
            try body.require("name", as: String.self, at: at)
        }
        #expect(throws: FieldViolation(pointer: at.appending("half"), detail: "expected integer, found number 1.5")) {
            try body.require("half", as: Int.self, at: at)
        }
        #expect(throws: FieldViolation(pointer: at.appending("nothing"), detail: "expected string, found null")) {
            try body.require("nothing", as: String.self, at: at)
        }
    }

    @Test func optionalTreatsAbsentAndNullAsNil() throws {
        #expect(try body.optional("missing", as: String.self, at: at) == nil)
        #expect(try body.optional("nothing", as: String.self, at: at) == nil)
        #expect(try body.optional("title", as: String.self, at: at) == "Groceries")
        #expect(throws: FieldViolation.self) { try body.optional("flag", as: String.self, at: at) }
    }

    @Test func collectorGathersEveryViolation() {
        var fields = FieldCollector()
        let title = fields.collect { () throws(FieldViolation) in try body.require("title", as: String.self, at: at) }
        let name = fields.collect { () throws(FieldViolation) in try body.require("name", as: String.self, at: at) }
        let missing = fields.collect { () throws(FieldViolation) in try body.require("size", as: Double.self, at: at) }
        fields.record(body.unknownMemberViolations(allowed: ["title", "count", "ratio", "flag", "half", "xs", "nothing"], at: at))
        #expect(title == "Groceries")
        #expect(name == nil && missing == nil)
        #expect(fields.violations.map(\.description) == [
            "/sticker/name: expected string, found number 7",
            "/sticker/size: missing required member",
            "/sticker/name: unknown member",
        ])
        #expect(throws: FieldViolations.self) { try fields.check() }
        #expect(throws: Never.self) { try FieldCollector().check() }
    }
}
