import Testing
@testable import Ink

/// Every way an InkML document is refused: the kind (which HTTP status), where, and what
/// was expected.
@Suite struct InkMLRejectionTests {
    private static let ns = #"xmlns="http://www.w3.org/2003/InkML""#

    private func failure(_ text: String, limits: InkLimits = InkLimits(),
                         markup: InkMLLimits = InkMLLimits()) -> InkMLError? {
        failure(Array(text.utf8), limits: limits, markup: markup)
    }

    private func failure(_ bytes: [UInt8], limits: InkLimits = InkLimits(),
                         markup: InkMLLimits = InkMLLimits()) -> InkMLError? {
        do {
            _ = try InkMLReader(limits: limits, markupLimits: markup).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// (document, kind, a fragment of the detail, the text the error offset points at).
    static let cases: [(String, InkMLError.Kind, String, String)] = [
        // Not well-formed XML.
        ("<ink><trace>1 2</trace>", .malformed, "ended inside <ink>; expected </ink>", ""),
        ("<ink><trace>1 2</traces></ink>", .malformed, "does not match its start tag; expected </trace>", "</traces>"),
        ("<ink><trace type=penUp>1 2</trace></ink>", .malformed, "expected a quoted value for the attribute 'type'", "penUp"),
        (#"<ink><trace type="a" type="b">1 2</trace></ink>"#, .malformed, "the attribute 'type' appears twice", #"type="b""#),
        (#"<ink><trace xml:id="a<b">1 2</trace></ink>"#, .malformed, "'<' is not allowed in an attribute value", "<b\""),
        (#"<ink><trace id="a"brushRef="b">1 2</trace></ink>"#, .malformed, "expected whitespace, '>' or '/>'", "brushRef"),
        ("<ink><trace>1 2</trace></ink>junk", .malformed, "only comments and processing instructions may follow", "junk"),
        ("<ink/><ink></ink>", .malformed, "one root element", "<ink>"),
        ("<ink><!-- a -- b --><trace>1 2</trace></ink>", .malformed, "'--' is not allowed inside a comment", "-- b"),
        ("<ink><!-- never closed </ink>", .malformed, "comment not closed", "<!--"),
        ("<ink><trace>1 2]]>3</trace></ink>", .malformed, "']]>' is not allowed in text", "]]>"),
        ("<ink><![CDATA[1 2</ink>", .malformed, "CDATA section not closed", "<![CDATA["),
        ("<ink><1trace/></ink>", .malformed, "expected an element name after '<'", "1trace"),
        ("<ink><a:b:c/></ink>", .malformed, "is not a valid qualified name", "a:b:c"),
        ("<ink><x:trace>1 2</x:trace></ink>", .malformed, "the namespace prefix 'x' of 'x:trace' is not declared", "<x:trace>"),
        (#"<ink xmlns:x="">1</ink>"#, .malformed, "cannot be bound to an empty namespace name", "xmlns:x"),
        (" <?xml version=\"1.0\"?><ink/>", .malformed, "only allowed at the very start", "<?xml"),
        (#"<?xml version="1.0" encoding="ISO-8859-1"?><ink/>"#, .malformed, "unsupported encoding 'ISO-8859-1'", "ISO-8859-1"),
        (#"<?xml encoding="UTF-8"?><ink/>"#, .malformed, "unexpected 'encoding'", "encoding"),
        ("<ink>\u{1}</ink>", .malformed, "control character U+0001 is not allowed", "\u{1}"),
        // Entities: only the predefined ones and character references; no DTD, ever.
        ("<ink><annotation>&nbsp;</annotation></ink>", .malformed, "undeclared entity '&nbsp;'", "&nbsp;"),
        ("<ink><trace>1 2 & 3</trace></ink>", .malformed, "'&' must start a reference", "& 3"),
        ("<ink><trace>1&#0;2</trace></ink>", .malformed, "names a character XML does not allow", "&#0;"),
        ("<ink><trace>1&#xD800;2</trace></ink>", .malformed, "names a character XML does not allow", "&#xD800;"),
        ("<ink><trace>1&#12a;2</trace></ink>", .malformed, "malformed character reference", "&#12a;"),
        ("""
         <?xml version="1.0"?>
         <!DOCTYPE ink [
           <!ENTITY lol "lol">
           <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
           <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
         ]>
         <ink><annotation>&lol3;</annotation></ink>
         """, .malformed, "document type declarations are refused", "<!DOCTYPE"),
        (#"<!DOCTYPE ink SYSTEM "file:///etc/passwd"><ink/>"#, .malformed, "no external entities", "<!DOCTYPE"),
        (#"<ink><!ENTITY x "y"></ink>"#, .malformed, "entity declarations are refused", "<!ENTITY"),
        // Not InkML.
        ("", .invalid, "the document has no root element", ""),
        ("<!-- only a comment -->", .invalid, "the document has no root element", ""),
        ("<svg><trace>1 2</trace></svg>", .invalid, "the root element must be <ink>", "<svg>"),
        (#"<ink xmlns="urn:other"><trace>1 2</trace></ink>"#, .invalid, "found <ink> in the namespace urn:other", "<ink"),
        ("<ink><trace>1 2<b>3</b></trace></ink>", .invalid, "elements are not allowed inside <trace>", "<b>"),
        ("<ink><trace></trace></ink>", .invalid, "a trace needs at least one point", "<trace>"),
        ("<ink><trace> \n </trace></ink>", .invalid, "a trace needs at least one point", " \n"),
        (#"<ink><trace type="hover">1 2</trace></ink>"#, .invalid, "trace type must be penDown, penUp or indeterminate", "type="),
        (##"<ink><trace contextRef="#nowhere">1 2</trace></ink>"##, .invalid, "no <context> with the id 'nowhere'", "contextRef"),
        (#"<ink><trace contextRef="other.inkml#c">1 2</trace></ink>"#, .invalid, "only references within the document", "contextRef"),
        (##"<ink><trace contextRef="#c">1 2</trace><definitions><context xml:id="c"/></definitions></ink>"##,
         .invalid, "defined before this reference", "contextRef"),
        (#"<ink><definitions><context xml:id="c"/><context xml:id="c"/></definitions></ink>"#, .invalid,
         "the id 'c' is defined twice", #"xml:id="c"/></d"#),
        // Trace formats.
        (#"<ink><traceFormat><channel name="X"/><channel name="T"/></traceFormat><trace>1 2</trace></ink>"#,
         .invalid, "(X T) has no Y channel", "<trace>"),
        (#"<ink><traceFormat></traceFormat></ink>"#, .invalid, "needs at least one regular <channel>", "<traceFormat>"),
        (#"<ink><traceFormat><channel type="decimal"/></traceFormat></ink>"#, .invalid, "a <channel> needs a name", "<channel"),
        (#"<ink><traceFormat><channel name="X"/><channel name="X"/></traceFormat></ink>"#, .invalid,
         "the channel X appears twice", #"<channel name="X"/></"#),
        (#"<ink><traceFormat><channel name="X" type="boolean"/></traceFormat></ink>"#, .invalid, "cannot have type boolean", "<channel"),
        (#"<ink><traceFormat><channel name="X" type="real"/></traceFormat></ink>"#, .invalid, "channel type must be", "type="),
        (#"<ink><traceFormat><channel name="X" orientation="up"/></traceFormat></ink>"#, .invalid, "orientation must be +ve or -ve", "orientation"),
        (#"<ink><traceFormat><channel name="F" max="ten"/></traceFormat></ink>"#, .invalid, "the attribute max must be a number", "max"),
        (#"<ink><traceFormat><channel name="F" min="5" max="5"/></traceFormat></ink>"#, .invalid, "must be greater than its min", "<channel"),
        (#"<ink><traceFormat><channel name="T" units="h"/></traceFormat></ink>"#, .invalid, "unsupported time unit 'h'", "units"),
        (#"<ink><traceFormat><channel name="X"/><intermittentChannels><channel name="Y"/></intermittentChannels></traceFormat></ink>"#,
         .invalid, "channel Y must be a regular channel", #"<channel name="Y""#),
        // Trace values.
        ("<ink><trace>1 2, 3 x</trace></ink>", .invalid, "expected a number for channel Y, ',' or a difference prefix (! ' \"), found 'x'", "x<"),
        ("<ink><trace>1 2, 3</trace></ink>", .invalid, "point 2 has 1 value; the trace format has 2 regular channels (X Y)", " 3<"),
        ("<ink><trace>1 2 3, 4 5</trace></ink>", .invalid, "point 1 has more than 2 values", "3, 4"),
        ("<ink><trace>1 2,, 3 4</trace></ink>", .invalid, "point 2 has 0 values", ", 3 4"),
        ("<ink><trace>1 T</trace></ink>", .invalid, "expected a number for channel Y, found 'T'", "T<"),
        ("<ink><trace>1 2, * 3</trace></ink>", .invalid, "expected a number for channel X, found '*'", "* 3"),
        ("<ink><trace>1 ?</trace></ink>", .invalid, "expected a number for channel Y, found '?'", "?<"),
        ("<ink><trace>'1 2</trace></ink>", .invalid, "the first value of channel X in a trace must be explicit", "'1"),
        ("<ink><trace>1 \"2</trace></ink>", .invalid, "the first value of channel Y in a trace must be explicit", "\"2"),
        ("<ink><trace>1e400 2</trace></ink>", .invalid, "a number too large for a double", "1e400"),
        ("<ink><trace>#10000000000000000 2</trace></ink>", .invalid, "a number too large for a double", "#1"),
        ("<ink><trace>1 2, 20000001 2</trace></ink>", .invalid, "X value 20000001 is outside ±10000000", "20000001"),
        ("<ink><trace>1 -1e8</trace></ink>", .invalid, "Y value -100000000 is outside ±10000000", "-1e8"),
        ("<ink><trace>9000000 0, '9000000 0</trace></ink>", .invalid, "X value 18000000 is outside", "'9000000"),
        (#"<ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat><trace>1 1 5, 2 2 -1</trace></ink>"#,
         .invalid, "time -1 ms is not a finite number ≥ 0", "-1<"),
        (#"<ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat><trace>1 1 120, 2 2 100</trace></ink>"#,
         .invalid, "time 100 ms is earlier than the previous time 120 ms", "100<"),
        (#"<ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="F" max="1023"/></traceFormat><trace>1 1 1024</trace></ink>"#,
         .invalid, "force 1024 is outside the channel's range 0…1023", "1024<"),
    ]

    @Test(arguments: cases.indices)
    func refusesWithKindDetailAndLocation(index: Int) throws {
        let (document, kind, detail, at) = Self.cases[index]
        let error = try #require(failure(document), "accepted: \(document)")
        #expect(error.kind == kind, "\(document)")
        #expect(error.detail.contains(detail), "\(error.detail)")
        // The offset points at the offending text (or the end of the document when it is empty).
        let expectedOffset = at.isEmpty ? document.utf8.count : try #require(Self.offset(of: at, in: document))
        #expect(error.offset == expectedOffset, "\(error)")
    }

    private static func offset(of fragment: String, in document: String) -> Int? {
        let bytes = Array(document.utf8), needle = Array(fragment.utf8)
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func reportsLineAndColumn() throws {
        let error = try #require(failure("<ink \(Self.ns)>\n  <trace>\n    1 2,\n    3 é</trace>\n</ink>"))
        #expect(error.line == 4 && error.column == 7)
        #expect(error.description == "invalid InkML at line 4, column 7 (byte \(error.offset)): expected a number for channel Y, "
            + "',' or a difference prefix (! ' \"), found a non-ASCII character")
        // Columns count characters, not bytes.
        let wide = try #require(failure("<ink>\n<a é=\"1\" é=\"2\"/></ink>"))
        #expect(wide.line == 2 && wide.column == 10)
    }

    @Test func mapsOffsetsThroughReferencesAndCDATA() throws {
        // The bad value follows a character reference and a CDATA section in the same trace.
        let document = "<ink><trace>1&#32;2,<![CDATA[ 3 4, ]]>5 x</trace></ink>"
        let error = try #require(failure(document))
        #expect(error.offset == Self.offset(of: "x<", in: document))
    }

    @Test func refusesBytesThatAreNotUTF8() throws {
        let invalid: [([UInt8], String, Int)] = [
            (Array("<ink>".utf8) + [0xC3, 0x28] + Array("</ink>".utf8), "invalid UTF-8", 5),
            (Array("<ink>".utf8) + [0xED, 0xA0, 0x80] + Array("</ink>".utf8), "invalid UTF-8", 5),   // a surrogate
            (Array("<ink>".utf8) + [0xC0, 0xAF] + Array("</ink>".utf8), "invalid UTF-8", 5),         // overlong
            (Array("<ink>".utf8) + [0xEF, 0xBF, 0xBE] + Array("</ink>".utf8), "U+FFFE and U+FFFF", 5),
            (Array("<ink>".utf8) + [0xF0, 0x9F], "invalid UTF-8", 5),                                 // truncated
            ([0xFF, 0xFE] + Array("<ink/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16 documents are not accepted", 0),
        ]
        for (bytes, detail, offset) in invalid {
            let error = try #require(failure(bytes))
            #expect(error.kind == .malformed && error.detail.contains(detail) && error.offset == offset, "\(error)")
        }
    }

    @Test func refusesNestingDeeperThanTheLimit() throws {
        let deep = "<ink>" + String(repeating: "<a>", count: 63) + String(repeating: "</a>", count: 63) + "</ink>"
        #expect(failure(deep) == nil)
        let tooDeep = "<ink>" + String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64) + "</ink>"
        let error = try #require(failure(tooDeep))
        #expect(error.kind == .malformed && error.detail == "elements are nested deeper than 64 levels")
        #expect(error.offset == 5 + 63 * 3)
    }

    @Test func refusesInkOverTheLimitsAsTooLarge() throws {
        let limits = InkLimits(maxStrokes: 2, maxPointsPerStroke: 3, maxTotalPoints: 5)
        let strokes = try #require(failure("<ink><trace>1 1</trace><trace>2 2</trace><trace>3 3</trace></ink>", limits: limits))
        #expect(strokes.kind == .tooLarge && strokes.detail == "more than 2 traces; at most 2 strokes are allowed")
        #expect(strokes.offset == 5 + 2 * "<trace>1 1</trace>".utf8.count)

        let points = try #require(failure("<ink><trace>1 1, 2 2, 3 3, 4 4</trace></ink>", limits: limits))
        #expect(points.kind == .tooLarge && points.detail.hasPrefix("more than 3 points in one trace"))
        #expect(points.offset == 26)

        let total = try #require(failure("<ink><trace>1 1, 2 2, 3 3</trace><trace>4 4, 5 5, 6 6</trace></ink>", limits: limits))
        #expect(total.kind == .tooLarge && total.detail.hasPrefix("more than 5 points in all"))
        // Degenerate limits refuse rather than trap.
        let none = try #require(failure("<ink><trace>1 1</trace></ink>", limits: InkLimits(maxPointsPerStroke: -1)))
        #expect(none.kind == .tooLarge)
        // Pen-up traces are not ink and do not count.
        #expect(failure(#"<ink><trace>1 1</trace><trace type="penUp">2 2</trace><trace>3 3</trace></ink>"#, limits: limits) == nil)
    }

    @Test func refusesMarkupOverItsLimits() throws {
        let cases: [(String, InkMLLimits, String)] = [
            (#"<ink a="1" b="2" c="3"/>"#, InkMLLimits(maxAttributes: 2), "more than 2 attributes on <ink>"),
            ("<ink><annotation/></ink>", InkMLLimits(maxNameLength: 8), "a name longer than 8 bytes"),
            (#"<ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat></ink>"#,
             InkMLLimits(maxChannels: 2), "more than 2 channels in one trace format"),
            (#"<ink><definitions><context xml:id="a"/><context xml:id="b"/></definitions></ink>"#,
             InkMLLimits(maxDefinitions: 1), "more than 1 definitions"),
            ("<ink><trace>1.2345 1</trace></ink>", InkMLLimits(maxNumberLength: 5), "a number longer than 5 bytes"),
        ]
        for (document, markup, detail) in cases {
            let error = try #require(failure(document, markup: markup))
            #expect(error.detail.contains(detail), "\(error)")
            #expect(error.kind != .tooLarge)
        }
    }
}
