import JSONKit

/// Turns the `strokes` member of a request into `[Stroke]`, or explains precisely why not.
///
/// Expected shape (unknown members of a stroke object are ignored, for forward compatibility):
///
///     [{"x": [numbers], "y": [numbers], "t": [numbers]?, "p": [numbers]?}, ...]
///
/// Size limits are checked first, from array counts alone, so an oversized document is refused
/// (`.tooLarge`) before any per-point work. Then every stroke is validated (`.invalid`):
/// types, at least one point, equal lengths of x/y/t/p, |x|,|y| ≤ `maxCoordinateMagnitude`,
/// t finite, ≥ 0 and non-decreasing within a stroke, p in 0...1. The first problem of each
/// array is reported with its exact pointer (`/strokes/0/t/5`), up to
/// `maxReportedViolations`. An empty array is valid and decodes to no strokes.
///
/// Coordinate arrays arrive from the reader as `.numbers([Double])` and become the stroke's
/// storage as they are, without copying.
public struct InkDecoder: Sendable {
    /// The limits enforced.
    public var limits: InkLimits

    /// A decoder with the given limits.
    public init(limits: InkLimits = InkLimits()) {
        self.limits = limits
    }

    /// Decodes `strokes`, which sits at `pointer` in the request document (e.g. `/strokes`).
    public func decode(_ strokes: JSONValue, at pointer: JSONPointer) throws(InkDecodingError) -> [Stroke] {
        let elements: [JSONValue]
        switch strokes {
        case let .array(array): elements = array
        case .numbers: elements = strokes.arrayValue ?? []
        default:
            throw InkDecodingError(kind: .invalid, violations: [
                FieldViolation(pointer: pointer, detail: "expected array of strokes, found \(strokes.kind)"),
            ])
        }
        try checkSize(elements, at: pointer)

        var report = ViolationReport(capacity: limits.maxReportedViolations)
        var decoded: [Stroke] = []
        decoded.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let stroke = decodeStroke(element, at: StrokePath(strokes: pointer, index: index), into: &report) {
                decoded.append(stroke)
            }
            if report.isFull { break }
        }
        guard report.violations.isEmpty else {
            throw InkDecodingError(kind: .invalid, violations: report.violations)
        }
        return decoded
    }

    /// Counts only: strokes, points per stroke and total points, before looking at any value.
    private func checkSize(_ elements: [JSONValue], at pointer: JSONPointer) throws(InkDecodingError) {
        guard elements.count <= limits.maxStrokes else {
            throw InkDecodingError(kind: .tooLarge, violations: [
                FieldViolation(pointer: pointer, detail: "\(elements.count) strokes; at most \(limits.maxStrokes) are allowed"),
            ])
        }
        var report = ViolationReport(capacity: limits.maxReportedViolations)
        var total = 0
        for (index, element) in elements.enumerated() {
            guard case let .object(object) = element else { continue }
            var strokePoints = 0
            for key in Self.channels {
                guard let count = object[key].flatMap(Self.arrayCount) else { continue }
                strokePoints = max(strokePoints, count)
                if count > limits.maxPointsPerStroke {
                    report.add(pointer.appending(index).appending(key),
                               "\(count) points; at most \(limits.maxPointsPerStroke) are allowed in one stroke")
                    break
                }
            }
            total += strokePoints
        }
        if total > limits.maxTotalPoints {
            report.add(pointer, "\(total) points in all; at most \(limits.maxTotalPoints) are allowed")
        }
        guard report.violations.isEmpty else {
            throw InkDecodingError(kind: .tooLarge, violations: report.violations)
        }
    }

    static let channels = ["x", "y", "t", "p"]

    private static func arrayCount(_ value: JSONValue) -> Int? {
        switch value {
        case let .numbers(numbers): numbers.count
        case let .array(elements): elements.count
        default: nil
        }
    }
}

/// Violations gathered up to a cap.
struct ViolationReport {
    let capacity: Int
    private(set) var violations: [FieldViolation] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var isFull: Bool { violations.count >= capacity }

    mutating func add(_ pointer: JSONPointer, _ detail: String) {
        guard !isFull else { return }
        violations.append(FieldViolation(pointer: pointer, detail: detail))
    }
}
