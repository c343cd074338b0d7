import Geometry
import Ink
import JSONKit
import Store

/// Where new ink goes: which sticker it writes into, where the pen touched, and the sticker's centre.
struct StickerPlacement: Sendable {
    enum Target: Sendable, Equatable {
        /// Into the field under the ink's centre, else a new sticker (default).
        case auto
        /// Always a new sticker.
        case new
        /// Into this field (409 when it is a label).
        case sticker(String)
    }

    static let members: Set<String> = ["anchor", "center", "target"]

    var target: Target = .auto
    var anchor: StickerRecord.Point?
    var center: StickerRecord.Point?

    static func decode(_ body: JSONObject, collector: inout FieldCollector, limit: Double) -> StickerPlacement {
        var placement = StickerPlacement()
        let root = JSONPointer.root
        if let name = collector.collect({ () throws(FieldViolation) in try body.optional("target", as: String.self, at: root) }) ?? nil {
            switch name {
            case "auto": placement.target = .auto
            case "new": placement.target = .new
            default:
                if ResourceID.isPlausible(name) {
                    placement.target = .sticker(name)
                } else {
                    collector.record(FieldViolation(pointer: root.appending("target"), detail: "expected auto, new or a sticker id"))
                }
            }
        }
        placement.anchor = point(body["anchor"], at: root.appending("anchor"), collector: &collector, limit: limit)
        placement.center = point(body["center"], at: root.appending("center"), collector: &collector, limit: limit)
        return placement
    }

    private static func point(_ value: JSONValue?, at pointer: JSONPointer, collector: inout FieldCollector,
                              limit: Double) -> StickerRecord.Point? {
        guard let value, !value.isNull else { return nil }
        guard let object = collector.collect({ () throws(FieldViolation) in try value.decode(as: JSONObject.self, at: pointer) }) else { return nil }
        collector.record(object.unknownMemberViolations(allowed: ["x", "y"], at: pointer))
        let x = collector.collect { () throws(FieldViolation) in try object.require("x", as: Double.self, at: pointer) }
        let y = collector.collect { () throws(FieldViolation) in try object.require("y", as: Double.self, at: pointer) }
        guard let x, let y else { return nil }
        guard abs(x) <= limit, abs(y) <= limit else {
            collector.record(FieldViolation(pointer: pointer, detail: "coordinates must be within ±\(limit.clean)"))
            return nil
        }
        return StickerRecord.Point(x: x, y: y)
    }

    /// The bounding box of all strokes.
    static func bounds(_ strokes: [Stroke]) -> StickerRecord.Rect {
        var box: Rect?
        for bounds in strokes.compactMap(\.bounds) { box = box.map { $0.union(bounds) } ?? bounds }
        guard let box else {
            return StickerRecord.Rect(x: 0, y: 0, width: 0, height: 0)
        }
        return StickerRecord.Rect(x: box.x, y: box.y, width: box.width, height: box.height)
    }

    static func union(_ a: StickerRecord.Rect, _ b: StickerRecord.Rect) -> StickerRecord.Rect {
        let minX = min(a.x, b.x), minY = min(a.y, b.y)
        let maxX = max(a.x + a.width, b.x + b.width), maxY = max(a.y + a.height, b.y + b.height)
        return StickerRecord.Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
