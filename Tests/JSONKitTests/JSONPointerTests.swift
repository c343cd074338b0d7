import Testing
@testable import JSONKit

@Suite struct JSONPointerTests {
    @Test func buildsAndPrints() {
        let pointer = JSONPointer.root.appending("strokes").appending(3).appending("y")
        #expect(pointer.description == "/strokes/3/y")
        #expect(JSONPointer.root.description == "")
        #expect(pointer.parent.description == "/strokes/3")
    }

    @Test func escapesTildeAndSlash() throws {
        let pointer = JSONPointer.root.appending("a/b").appending("m~n").appending("~1")
        #expect(pointer.description == "/a~1b/m~0n/~01")
        #expect(try JSONPointer(parsing: pointer.description) == pointer)
    }

    @Test func parsesRFC6901Examples() throws {
        #expect(try JSONPointer(parsing: "").tokens == [])
        #expect(try JSONPointer(parsing: "/").tokens == [""])
        #expect(try JSONPointer(parsing: "/foo/0").tokens == ["foo", "0"])
        #expect(try JSONPointer(parsing: "/a~1b").tokens == ["a/b"])
        #expect(try JSONPointer(parsing: "/m~0n").tokens == ["m~n"])
        #expect(try JSONPointer(parsing: "/strokes/3") == .root.appending("strokes").appending(3))
        #expect(throws: JSONPointerSyntaxError.self) { try JSONPointer(parsing: "foo") }
        #expect(throws: JSONPointerSyntaxError.self) { try JSONPointer(parsing: "/a~2") }
        #expect(throws: JSONPointerSyntaxError.self) { try JSONPointer(parsing: "/a~") }
    }

    @Test func resolvesAgainstADocument() throws {
        // The example document of RFC 6901 §5.
        let document = try JSONReader.parse(#"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8,"n":{"xs":[1.5,2]}}"#)
        let cases: [(String, JSONValue?)] = [
            ("", document), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1),
            ("/c%d", 2), ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
            ("/n/xs/1", 2), ("/foo/2", nil), ("/foo/01", nil), ("/foo/-", nil), ("/nope", nil), ("/foo/0/x", nil),
        ]
        for (text, expected) in cases {
            #expect(try JSONPointer(parsing: text).resolve(in: document) == expected, "\(text)")
        }
    }
}
