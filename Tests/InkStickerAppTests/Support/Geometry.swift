import Foundation

/// Reading points and frames out of sticker JSON.
enum Geometry {
    static func point(_ value: Any?) -> (x: Double, y: Double) {
        let p = value as? [String: Any] ?? [:]
        return ((p["x"] as? Double) ?? .nan, (p["y"] as? Double) ?? .nan)
    }

    static func frame(_ value: Any?) -> (x: Double, y: Double, width: Double, height: Double) {
        let f = value as? [String: Any] ?? [:]
        return ((f["x"] as? Double) ?? .nan, (f["y"] as? Double) ?? .nan,
                (f["width"] as? Double) ?? .nan, (f["height"] as? Double) ?? .nan)
    }

    /// Whether the sticker's frame is centred on its `center` (to within rounding).
    static func isCentred(_ sticker: [String: Any]) -> Bool {
        let c = point(sticker["center"])
        let f = frame(sticker["frame"])
        return abs(f.x + f.width / 2 - c.x) < 1e-6 && abs(f.y + f.height / 2 - c.y) < 1e-6
    }

    /// The centre of the bounding box of corpus strokes.
    static func inkCentre(_ strokes: Any) -> (x: Double, y: Double) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for case let stroke as [String: Any] in strokes as? [Any] ?? [] {
            for x in stroke["x"] as? [Double] ?? [] { minX = min(minX, x); maxX = max(maxX, x) }
            for y in stroke["y"] as? [Double] ?? [] { minY = min(minY, y); maxY = max(maxY, y) }
        }
        return ((minX + maxX) / 2, (minY + maxY) / 2)
    }
}
