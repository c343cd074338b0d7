import Foundation
import Testing

/// W3C InkML bodies on the ink routes, read into the same strokes as JSON.
@Suite(.serialized) struct InkMLTests {
    static func inkML(_ strokes: Any, withTime: Bool) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<ink xmlns="http://www.w3.org/2003/InkML"><definitions><context xml:id="ctx"><traceFormat>"#
        xml += #"<channel name="X" type="decimal"/><channel name="Y" type="decimal"/>"#
        if withTime { xml += #"<channel name="T" type="integer" units="ms"/>"# }
        xml += "</traceFormat></context></definitions><traceGroup>"
        for case let stroke as [String: Any] in strokes as? [Any] ?? [] {
            let xs = (stroke["x"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            let ys = (stroke["y"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            let ts = (stroke["t"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            let points = xs.indices.map { i in
                withTime && i < ts.count ? "\(xs[i]) \(ys[i]) \(Int(ts[i]))" : "\(xs[i]) \(ys[i])"
            }
            xml += "<trace contextRef=\"#ctx\">" + points.joined(separator: ", ") + "</trace>"
        }
        return xml + "</traceGroup><annotation type=\"truth\">ignored</annotation></ink>"
    }

    @Test func inkMLReadsLikeTheSameInkInJSON() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let json = try client.request("POST", "/v1/recognize", json: ["strokes": sample.strokes])
        let xml = try client.request("POST", "/v1/recognize", body: Data(Self.inkML(sample.strokes, withTime: true).utf8),
                                     headers: ["Content-Type": "application/inkml+xml"])
        #expect(xml.status == 200, "\(xml.text)")
        #expect(xml.json["text"] as? String == json.json["text"] as? String)
        #expect(xml.json["text"] as? String == sample.text)

        let board = try client.request("POST", "/v1/boards", json: [:])
        let token = board.json["token"] as? String ?? ""
        let sticker = try client.request("POST", "/v1/boards/\(board.json["id"] as? String ?? "")/stickers?target=new&lang=eng",
                                         body: Data(Self.inkML(sample.strokes, withTime: false).utf8),
                                         headers: ["Content-Type": "application/inkml+xml"], token: token)
        #expect(sticker.status == 201)
        #expect(sticker.json["text"] as? String == sample.text)
    }

    @Test func badInkMLIsRefusedWithLocation() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let headers = ["Content-Type": "application/inkml+xml"]
        let malformed = try client.request("POST", "/v1/recognize", body: Data("<ink><trace>1 2, 3".utf8), headers: headers)
        #expect(malformed.status == 400)
        #expect((malformed.json["detail"] as? String)?.contains("line 1") == true)
        let entity = """
        <?xml version="1.0"?><!DOCTYPE ink [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <ink xmlns="http://www.w3.org/2003/InkML"><trace>&x;</trace></ink>
        """
        let external = try client.request("POST", "/v1/recognize", body: Data(entity.utf8), headers: headers)
        #expect(external.status == 400)
        #expect(!external.text.contains("root:"))
        let letters = try client.request("POST", "/v1/recognize",
                                         body: Data(#"<ink xmlns="http://www.w3.org/2003/InkML"><trace>1 2, a b</trace></ink>"#.utf8), headers: headers)
        #expect(letters.status == 422)
    }
}
