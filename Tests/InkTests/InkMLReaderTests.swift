import Testing
import JSONKit
@testable import Ink

/// InkML documents that must be read, and what they must read as.
@Suite struct InkMLReaderTests {
    private func read(_ text: String, limits: InkLimits = InkLimits()) throws -> [Stroke] {
        try InkMLReader(limits: limits).read(Array(text.utf8))
    }

    private static let ns = #"xmlns="http://www.w3.org/2003/InkML""#

    // MARK: Documents in the spirit of the specification's examples

    @Test func readsTracesInTheDefaultFormat() throws {
        // No trace format: every point is "X Y", points separated by commas (InkML §3.1.3).
        let strokes = try read("""
            <ink \(Self.ns)>
              <trace>
                10 0, 9 14, 8 28, 7 42, 6 56, 6 70, 8 84, 8 98, 8 112, 9 126, 10 140,
                13 154, 14 168, 17 182, 18 188
              </trace>
              <trace>130 155, 144 159, 158 160</trace>
            </ink>
            """)
        #expect(strokes.count == 2)
        #expect(strokes[0].x == [10, 9, 8, 7, 6, 6, 8, 8, 8, 9, 10, 13, 14, 17, 18])
        #expect(strokes[0].y == [0, 14, 28, 42, 56, 70, 84, 98, 112, 126, 140, 154, 168, 182, 188])
        #expect(strokes[0].t == nil && strokes[0].p == nil)
        #expect(strokes[1] == Stroke(x: [130, 144, 158], y: [155, 159, 160]))
    }

    @Test func readsAPrefixedRootAndAnUnqualifiedOne() throws {
        let prefixed = try read("""
            <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML"><inkml:trace>1 2, 3 4</inkml:trace></inkml:ink>
            """)
        #expect(prefixed == [Stroke(x: [1, 3], y: [2, 4])])
        // Many producers leave the namespace out altogether.
        #expect(try read("<ink><trace>1 2, 3 4</trace></ink>") == prefixed)
        // A trace element of another namespace inside InkML is not ink.
        let foreign = try read(#"<ink \#(Self.ns) xmlns:x="urn:x"><x:trace>9 9</x:trace><trace>1 2, 3 4</trace></ink>"#)
        #expect(foreign == prefixed)
    }

    @Test func readsTimeAndForceChannels() throws {
        // T in seconds becomes milliseconds; F scales from 0…max to 0…1.
        let strokes = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <ink \(Self.ns)>
              <traceFormat>
                <channel name="X" type="decimal"/>
                <channel name="Y" type="decimal"/>
                <channel name="T" type="decimal" units="s"/>
                <channel name="F" type="integer" max="1024"/>
              </traceFormat>
              <trace>100 200 0 0, 101 201 0.008 512, 103 204 0.016 1024</trace>
            </ink>
            """)
        #expect(strokes == [Stroke(x: [100, 101, 103], y: [200, 201, 204], t: [0, 8, 16], p: [0, 0.5, 1])])
    }

    @Test func forceWithoutARangeIsKeptOnlyWhenItIsAlreadyAPressure() throws {
        let format = #"<traceFormat><channel name="X"/><channel name="Y"/><channel name="F"/></traceFormat>"#
        let fraction = try read("<ink \(Self.ns)>\(format)<trace>1 1 0.25, 2 2 1</trace></ink>")
        #expect(fraction[0].p == [0.25, 1])
        // Raw device units without a declared max cannot be turned into 0…1: dropped, not guessed.
        let raw = try read("<ink \(Self.ns)>\(format)<trace>1 1 300, 2 2 700</trace></ink>")
        #expect(raw == [Stroke(x: [1, 2], y: [1, 2])])
        // min shifts the range.
        let ranged = try read(#"<ink \#(Self.ns)><traceFormat><channel name="X"/><channel name="Y"/><channel name="F" min="100" max="300"/></traceFormat><trace>1 1 100, 2 2 150, 3 3 300</trace></ink>"#)
        #expect(ranged[0].p == [0, 0.25, 1])
    }

    @Test func readsFormatsFromDefinitionsContextsAndInkSources() throws {
        let strokes = try read("""
            <ink \(Self.ns)>
              <definitions>
                <traceFormat xml:id="xyt">
                  <channel name="X"/><channel name="Y"/><channel name="T"/>
                </traceFormat>
                <context xml:id="timed" traceFormatRef="#xyt"/>
                <inkSource xml:id="pen">
                  <traceFormat><channel name="Y"/><channel name="X"/></traceFormat>
                </inkSource>
                <context xml:id="swapped" inkSourceRef="#pen"/>
                <context xml:id="inherited" contextRef="#timed"/>
                <context xml:id="nested">
                  <inkSource><traceFormat><channel name="X"/><channel name="Y"/><channel name="F" max="10"/></traceFormat></inkSource>
                </context>
              </definitions>
              <trace contextRef="#timed">1 2 0, 3 4 5</trace>
              <trace contextRef="#swapped">1 2, 3 4</trace>
              <trace contextRef="#inherited">5 6 7</trace>
              <trace contextRef="#nested">1 1 5</trace>
              <trace>9 8</trace>
              <context contextRef="#swapped"/>
              <trace>9 8</trace>
            </ink>
            """)
        #expect(strokes == [
            Stroke(x: [1, 3], y: [2, 4], t: [0, 5]),
            Stroke(x: [2, 4], y: [1, 3]),
            Stroke(x: [5], y: [6], t: [7]),
            Stroke(x: [1], y: [1], p: [0.5]),
            Stroke(x: [9], y: [8]),
            // The <context> in <ink> changed the current context for the traces after it.
            Stroke(x: [8], y: [9]),
        ])
    }

    @Test func flattensNestedTraceGroupsInDocumentOrder() throws {
        let strokes = try read("""
            <ink \(Self.ns)>
              <definitions>
                <context xml:id="yx"><traceFormat><channel name="Y"/><channel name="X"/></traceFormat></context>
              </definitions>
              <trace>1 1</trace>
              <traceGroup xml:id="word">
                <annotation type="truth">ab</annotation>
                <traceGroup contextRef="#yx">
                  <trace>2 20</trace>
                  <traceGroup><trace>3 30</trace></traceGroup>
                </traceGroup>
                <trace>4 40</trace>
              </traceGroup>
              <trace>5 50</trace>
            </ink>
            """)
        // Inside the group with contextRef the channels are Y X; outside it X Y again.
        #expect(strokes.map(\.x) == [[1], [20], [30], [4], [5]])
        #expect(strokes.map(\.y) == [[1], [2], [3], [40], [50]])
    }

    @Test func decodesFirstAndSecondDifferences() throws {
        // (1125, 18432) explicit; '23'43 adds (23, 43): (1148, 18475); "7"-8 adds the previous
        // difference (23, 43) plus (7, -8): (1178, 18510); 3-5 stays a second difference:
        // (30, 35) + (3, -5) = (33, 30) added: (1211, 18540); !0 !0 back to explicit.
        let strokes = try read(#"<ink \#(Self.ns)><trace>1125 18432,'23'43,"7"-8,3-5,!0 !0</trace></ink>"#)
        #expect(strokes == [Stroke(x: [1125, 1148, 1178, 1211, 0], y: [18432, 18475, 18510, 18540, 0])])
        // A second difference right after the first point adds to a difference of 0.
        #expect(try read(#"<ink><trace>10 10, "1 "2, "1 "2</trace></ink>"#) == [Stroke(x: [10, 11, 13], y: [10, 12, 16])])
        // Channels keep their own encodings.
        #expect(try read("<ink><trace>5 5, '1 6, 2 '-1</trace></ink>") == [Stroke(x: [5, 6, 8], y: [5, 6, 5])])
    }

    @Test func readsTheValueSyntax() throws {
        // Signs separate values; '+' is tolerated; decimals may lack digits on one side;
        // exponents, hex values and a trailing comma are read.
        let strokes = try read("<ink><trace>10-5, +3 .5, 2. 1e2, #1A -#ff, 1.5.5,</trace></ink>")
        #expect(strokes == [Stroke(x: [10, 3, 2, 26, 1.5], y: [-5, 0.5, 100, -255, 0.5])])
        // Whitespace of every kind separates, also between a prefix, a sign and the digits.
        #expect(try read("<ink><trace>\t1\r\n2 ,\n' - 1 ' 1</trace></ink>") == [Stroke(x: [1, 0], y: [2, 3])])
    }

    @Test func dropsOtherChannelsAndIntermittentValues() throws {
        let strokes = try read("""
            <ink \(Self.ns)>
              <traceFormat>
                <channel name="X"/><channel name="OTx" orientation="-ve"/><channel name="Y"/><channel name="B1" type="boolean"/>
                <intermittentChannels><channel name="W"/><channel name="S" type="boolean"/></intermittentChannels>
              </traceFormat>
              <trace>1 45 2 T, 3 * 4 F 0.5, 5 ? 6 T 0.5 F</trace>
            </ink>
            """)
        #expect(strokes == [Stroke(x: [1, 3, 5], y: [2, 4, 6])])
    }

    @Test func negativeOrientationFlipsAnAxis() throws {
        let strokes = try read(#"<ink><traceFormat><channel name="X"/><channel name="Y" orientation="-ve"/></traceFormat><trace>1 2, 3 -4</trace></ink>"#)
        #expect(strokes == [Stroke(x: [1, 3], y: [-2, 4])])
    }

    @Test func skipsWhatIsNotInk() throws {
        let strokes = try read("""
            \u{FEFF}<?xml version='1.0' encoding='utf-8' standalone="yes"?>
            <!-- written by hand -->
            <?app setting="1"?>
            <ink \(Self.ns) documentID="urn:doc">
              <annotation type="writer">A &amp; B &lt;3 &#x1F58A;</annotation>
              <annotationXML><trace>99 99</trace><svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg></annotationXML>
              <definitions><brush xml:id="b"/><trace xml:id="t0">7 7</trace><timestamp xml:id="ts" time="0"/></definitions>
              <trace type="penUp">50 50, 60 60</trace>
              <trace type="indeterminate" brushRef="#b"><![CDATA[1 2,]]> 3<!-- a comment -->&#32;4<?pi?></trace>
              <traceView traceDataRef="#t0"/>
              <unknownElement><trace>8 8</trace></unknownElement>
            </ink>
            <!-- after the root -->
            """)
        #expect(strokes == [Stroke(x: [1, 3], y: [2, 4])])
    }

    @Test func anInkWithoutTracesHasNoStrokes() throws {
        #expect(try read("<ink \(Self.ns)/>") == [])
        #expect(try read("<ink \(Self.ns)><annotation>empty</annotation></ink>") == [])
    }

    @Test func acceptsInkExactlyAtTheLimits() throws {
        let limits = InkLimits(maxStrokes: 2, maxPointsPerStroke: 3, maxTotalPoints: 5)
        let strokes = try read("<ink><trace>1 1, 2 2, 3 3</trace><trace>4 4, 5 5</trace></ink>", limits: limits)
        #expect(strokes.totalPointCount == 5)
        #expect(try read("<ink><trace>1e7 -1e7</trace></ink>") == [Stroke(x: [1e7], y: [-1e7])])
    }

    // MARK: Equivalence with the JSON decoder

    @Test func readsTheSameStrokesAsTheJSONDecoder() throws {
        let json = #"[{"x":[12000.5,12001,12003.25],"y":[-40,-38.5,-37],"t":[0,8,16],"p":[0.1,0.5,1]},{"x":[5],"y":[6]}]"#
        let fromJSON = try InkDecoder().decode(JSONReader.parse(json), at: .root.appending("strokes"))
        let fromInkML = try read("""
            <ink \(Self.ns)>
              <definitions>
                <context xml:id="pen"><traceFormat>
                  <channel name="X"/><channel name="Y"/><channel name="T"/><channel name="F" max="1"/>
                </traceFormat></context>
              </definitions>
              <trace contextRef="#pen">12000.5 -40 0 0.1, 12001 -38.5 8 0.5, 12003.25 -37 16 1</trace>
              <trace>5 6</trace>
            </ink>
            """)
        #expect(fromInkML == fromJSON)
    }

    /// Every handwriting fixture in tablet units (integer coordinates far from the origin), written as InkML (explicit values, and again
    /// as first differences), reads back as exactly the strokes the JSON decoder produced.
    @Test func corpusSamplesReadTheSameAsInkML() throws {
        let samples = try Corpus.samples("hand-words.jsonl").prefix(200)
        try #require(!samples.isEmpty, "the ink fixtures are missing")
        for sample in samples {
            for differences in [false, true] {
                let document = InkMLTestWriter.document(sample.strokes, differences: differences)
                let strokes = try InkMLReader().read(Array(document.utf8))
                #expect(strokes == sample.strokes, "\(sample.id), differences: \(differences)")
            }
        }
    }
}

/// Writes strokes as InkML the way a client might, for round-trip tests.
enum InkMLTestWriter {
    static func document(_ strokes: [Stroke], differences: Bool) -> String {
        var text = #"<?xml version="1.0"?>\#n<inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">\#n"#
        let timed = strokes.contains { $0.t != nil }
        text += "<inkml:definitions><inkml:context xml:id=\"c\"><inkml:traceFormat>"
        text += #"<inkml:channel name="X"/><inkml:channel name="Y"/><inkml:channel name="T" units="ms"/>"#
        text += "</inkml:traceFormat></inkml:context></inkml:definitions>\n"
        for stroke in strokes {
            let useTime = timed && stroke.t != nil
            text += useTime ? ##"<inkml:trace contextRef="#c">"## : "<inkml:trace>"
            for index in 0..<stroke.pointCount {
                if index > 0 { text += ", " }
                var values = [stroke.x[index], stroke.y[index]]
                if useTime, let t = stroke.t { values.append(t[index]) }
                if differences, index > 0 {
                    var previous = [stroke.x[index - 1], stroke.y[index - 1]]
                    if useTime, let t = stroke.t { previous.append(t[index - 1]) }
                    // Integer data only: differences of integers are exact in a Double.
                    text += zip(values, previous).map { "'\(Self.number($0 - $1))" }.joined(separator: " ")
                } else {
                    text += values.map(Self.number).joined(separator: " ")
                }
            }
            text += "</inkml:trace>\n"
        }
        return text + "</inkml:ink>\n"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
