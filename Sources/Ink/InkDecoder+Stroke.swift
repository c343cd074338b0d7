import JSONKit

extension InkDecoder {
    /// One stroke object, or `nil` after reporting what is wrong with it.
    func decodeStroke(_ element: JSONValue, at path: StrokePath, into report: inout ViolationReport) -> Stroke? {
        guard case let .object(object) = element else {
            report.add(path.stroke, "expected stroke object, found \(element.kind)")
            return nil
        }
        let before = report.violations.count
        let x = channel("x", of: object, required: true, at: path, into: &report)
        let y = channel("y", of: object, required: true, at: path, into: &report)
        let t = channel("t", of: object, required: false, at: path, into: &report)
        let p = channel("p", of: object, required: false, at: path, into: &report)
        guard let x, let y, report.violations.count == before else { return nil }

        guard !x.isEmpty else {
            report.add(path("x"), "a stroke needs at least one point")
            return nil
        }
        func checkLength(_ key: String, _ values: [Double]?) {
            if let values, values.count != x.count {
                report.add(path(key), "has \(values.count) values but x has \(x.count)")
            }
        }
        checkLength("y", y)
        checkLength("t", t)
        checkLength("p", p)
        guard report.violations.count == before else { return nil }

        let bound = limits.maxCoordinateMagnitude
        func checkCoordinates(_ key: String, _ values: [Double]) {
            if let bad = values.firstIndex(where: { !($0.magnitude <= bound) }) {
                report.add(path(key, bad), "\(Self.format(values[bad])) is outside ±\(Self.format(bound))")
            }
        }
        checkCoordinates("x", x)
        checkCoordinates("y", y)
        if let t { checkTimes(t, at: path, into: &report) }
        if let p, let bad = p.firstIndex(where: { !($0 >= 0 && $0 <= 1) }) {
            report.add(path("p", bad), "pressure \(Self.format(p[bad])) is outside 0...1")
        }
        guard report.violations.count == before else { return nil }
        return Stroke(x: x, y: y, t: t, p: p)
    }

    /// Times must be finite, ≥ 0 and non-decreasing; the first offender is reported.
    private func checkTimes(_ t: [Double], at path: StrokePath, into report: inout ViolationReport) {
        var previous = 0.0
        for (index, time) in t.enumerated() {
            if !(time.isFinite && time >= 0) {
                report.add(path("t", index), "time \(Self.format(time)) is not a finite number ≥ 0")
                return
            }
            if time < previous {
                report.add(path("t", index),
                           "time \(Self.format(time)) is earlier than the previous time \(Self.format(previous))")
                return
            }
            previous = time
        }
    }

    /// The numbers of member `key`; reports a missing required member, a non-array or the
    /// first non-number element. An optional member may be absent or `null`.
    private func channel(_ key: String, of object: JSONObject, required: Bool, at path: StrokePath,
                         into report: inout ViolationReport) -> [Double]? {
        switch object[key] {
        case let .numbers(numbers)?:
            return numbers
        case let .array(elements)?:
            var numbers: [Double] = []
            numbers.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case let .number(number) = element else {
                    report.add(path(key, index), "expected number, found \(element.kind)")
                    return nil
                }
                numbers.append(number)
            }
            return numbers
        case nil where !required, .null? where !required:
            return nil
        case nil:
            report.add(path(key), "missing required member")
            return nil
        case let value?:
            report.add(path(key), "expected array of numbers, found \(value.kind)")
            return nil
        }
    }

    /// A number as JSON would write it (`3`, `0.5`, `1e+20`).
    static func format(_ number: Double) -> String {
        number.isFinite ? JSONValue.number(number).description : "\(number)"
    }
}

/// Where one stroke sits in the request, turned into a pointer only when a violation is
/// reported: building pointers for every valid stroke would cost more than validating it.
struct StrokePath {
    let strokes: JSONPointer
    let index: Int

    /// `/strokes/3`.
    var stroke: JSONPointer { strokes.appending(index) }

    /// `/strokes/3/y`.
    func callAsFunction(_ key: String) -> JSONPointer { stroke.appending(key) }

    /// `/strokes/3/y/5`.
    func callAsFunction(_ key: String, _ element: Int) -> JSONPointer { stroke.appending(key).appending(element) }
}
