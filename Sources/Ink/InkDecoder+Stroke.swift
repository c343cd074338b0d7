import JSONKit

extension InkDecoder {
    /// One stroke object, or `nil` after reporting what is wrong with it.
    func decodeStroke(_ element: JSONValue, at pointer: JSONPointer, into report: inout ViolationReport) -> Stroke? {
        guard case let .object(object) = element else {
            report.add(pointer, "expected stroke object, found \(element.kind)")
            return nil
        }
        let before = report.violations.count
        let x = channel("x", of: object, required: true, at: pointer, into: &report)
        let y = channel("y", of: object, required: true, at: pointer, into: &report)
        let t = channel("t", of: object, required: false, at: pointer, into: &report)
        let p = channel("p", of: object, required: false, at: pointer, into: &report)
        guard let x, let y, report.violations.count == before else { return nil }

        guard !x.isEmpty else {
            report.add(pointer.appending("x"), "a stroke needs at least one point")
            return nil
        }
        for (key, values) in [("y", y), ("t", t), ("p", p)] {
            if let values, values.count != x.count {
                report.add(pointer.appending(key), "has \(values.count) values but x has \(x.count)")
            }
        }
        guard report.violations.count == before else { return nil }

        let bound = limits.maxCoordinateMagnitude
        for (key, values) in [("x", x), ("y", y)] {
            if let bad = values.firstIndex(where: { !($0.magnitude <= bound) }) {
                report.add(pointer.appending(key).appending(bad),
                           "\(Self.format(values[bad])) is outside ±\(Self.format(bound))")
            }
        }
        if let t { checkTimes(t, at: pointer.appending("t"), into: &report) }
        if let p, let bad = p.firstIndex(where: { !($0 >= 0 && $0 <= 1) }) {
            report.add(pointer.appending("p").appending(bad), "pressure \(Self.format(p[bad])) is outside 0...1")
        }
        guard report.violations.count == before else { return nil }
        return Stroke(x: x, y: y, t: t, p: p)
    }

    /// Times must be finite, ≥ 0 and non-decreasing; the first offender is reported.
    private func checkTimes(_ t: [Double], at pointer: JSONPointer, into report: inout ViolationReport) {
        var previous = 0.0
        for (index, time) in t.enumerated() {
            if !(time.isFinite && time >= 0) {
                report.add(pointer.appending(index), "time \(Self.format(time)) is not a finite number ≥ 0")
                return
            }
            if time < previous {
                report.add(pointer.appending(index),
                           "time \(Self.format(time)) is earlier than the previous time \(Self.format(previous))")
                return
            }
            previous = time
        }
    }

    /// The numbers of member `key`; reports a missing required member, a non-array or the
    /// first non-number element. An optional member may be absent or `null`.
    private func channel(_ key: String, of object: JSONObject, required: Bool, at pointer: JSONPointer,
                         into report: inout ViolationReport) -> [Double]? {
        let memberPointer = pointer.appending(key)
        switch object[key] {
        case let .numbers(numbers)?:
            return numbers
        case let .array(elements)?:
            var numbers: [Double] = []
            numbers.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case let .number(number) = element else {
                    report.add(memberPointer.appending(index), "expected number, found \(element.kind)")
                    return nil
                }
                numbers.append(number)
            }
            return numbers
        case nil where !required, .null? where !required:
            return nil
        case nil:
            report.add(memberPointer, "missing required member")
            return nil
        case let value?:
            report.add(memberPointer, "expected array of numbers, found \(value.kind)")
            return nil
        }
    }

    /// A number as JSON would write it (`3`, `0.5`, `1e+20`).
    static func format(_ number: Double) -> String {
        number.isFinite ? JSONValue.number(number).description : "\(number)"
    }
}
