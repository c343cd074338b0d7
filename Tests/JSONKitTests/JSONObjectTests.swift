import Testing
@testable import JSONKit

@Suite struct JSONObjectTests {
    private func manyKeys(_ count: Int, duplicateAt: Int? = nil) -> String {
        let members = (0..<count).map { index in "\"k\(index == duplicateAt ? 0 : index)\":\(index)" }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func largeObjectsLookUpThroughTheIndex() throws {
        let value = try parse(manyKeys(200))
        let object = try #require(value.objectValue)
        #expect(object.count == 200)
        #expect(object["k0"] == 0)
        #expect(object["k137"] == 137)
        #expect(object["k200"] == nil)
        #expect(object.keys.first == "k0" && object.keys.last == "k199")
    }

    @Test func duplicatesAreFoundInSmallAndLargeObjects() {
        #expect(parseError(manyKeys(5, duplicateAt: 4))?.reason == .duplicateKey("k0"))
        #expect(parseError(manyKeys(200, duplicateAt: 150))?.reason == .duplicateKey("k0"))
        #expect(parseError(manyKeys(200, duplicateAt: 12))?.reason == .duplicateKey("k0"))
        #expect(parseError(manyKeys(200, duplicateAt: 13))?.reason == .duplicateKey("k0"))
    }

    @Test func assignmentAppendsReplacesAndRemoves() {
        var object = JSONObject()
        for index in 0..<30 { object["k\(index)"] = .number(Double(index)) }
        object["k5"] = "five"
        object["k3"] = nil
        #expect(object.count == 29)
        #expect(object["k5"] == "five")
        #expect(object["k3"] == nil)
        #expect(object["k29"] == 29)
        #expect(object.keys.prefix(4) == ["k0", "k1", "k2", "k4"])
        for index in 0..<25 { object["k\(index)"] = nil }
        #expect(object.keys == ["k25", "k26", "k27", "k28", "k29"])
        #expect(object["k27"] == 27)
    }

    @Test func equalityIsOrderSensitive() {
        let ab: JSONObject = ["a": 1, "b": 2]
        let ba: JSONObject = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab == JSONObject([("a", 1), ("b", 2)]))
    }

    @Test func accessors() throws {
        let value = try parse(#"{"s":"x","n":2,"f":2.5,"b":false,"a":[1,"x"],"xs":[3,4],"o":{"k":null}}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.intValue == 2)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 2.5)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?.doubleArray == nil)
        #expect(value["a"]?[1] == "x")
        #expect(value["xs"]?[1] == 4)
        #expect(value["xs"]?[2] == nil)
        #expect(value["xs"]?.arrayValue == [3, 4])
        #expect(value["o"]?["k"]?.isNull == true)
        #expect(value["o"]?.kind == .object)
        #expect(value["xs"]?.kind == .array)
        #expect(value["s"]?["k"] == nil)
        #expect(JSONValue.array([]).doubleArray == [])
        #expect(JSONValue.number(1e300).intValue == nil)
    }
}
