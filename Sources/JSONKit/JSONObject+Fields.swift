extension JSONValue {
    /// This value converted to `T`, or a violation at `pointer` saying what was expected.
    public func decode<T: JSONFieldDecodable>(as type: T.Type = T.self, at pointer: JSONPointer) throws(FieldViolation) -> T {
        guard let value = T(json: self) else {
            throw FieldViolation(pointer: pointer, detail: "expected \(T.expectedJSON), found \(foundDescription)")
        }
        return value
    }

    /// How a violation names this value: its kind, plus the value itself for short scalars.
    var foundDescription: String {
        switch self {
        case let .number(number): "number \(JSONWriter().string(.number(number)))"
        case let .bool(flag): flag ? "true" : "false"
        default: kind.description
        }
    }
}

extension JSONObject {
    /// The member `key` as a `T`; a missing member or a wrong type is a violation at
    /// `pointer/key`. `null` counts as present and is reported as a type mismatch.
    public func require<T: JSONFieldDecodable>(_ key: String, as type: T.Type = T.self, at pointer: JSONPointer) throws(FieldViolation) -> T {
        let memberPointer = pointer.appending(key)
        guard let value = self[key] else {
            throw FieldViolation(pointer: memberPointer, detail: "missing required member")
        }
        return try value.decode(as: T.self, at: memberPointer)
    }

    /// The member `key` as a `T`, or `nil` when it is absent or `null`; a present value of the
    /// wrong type is a violation at `pointer/key`.
    public func optional<T: JSONFieldDecodable>(_ key: String, as type: T.Type = T.self, at pointer: JSONPointer) throws(FieldViolation) -> T? {
        guard let value = self[key], !value.isNull else { return nil }
        return try value.decode(as: T.self, at: pointer.appending(key))
    }

    /// One violation for each member whose key is not in `allowed`, for endpoints that refuse
    /// unknown fields instead of silently ignoring typos.
    public func unknownMemberViolations(allowed: Set<String>, at pointer: JSONPointer) -> [FieldViolation] {
        keys.filter { !allowed.contains($0) }.map {
            FieldViolation(pointer: pointer.appending($0), detail: "unknown member")
        }
    }
}

/// Gathers violations from several independent checks, so a client learns about all of its
/// mistakes from one response instead of fixing them one round trip at a time.
///
///     var fields = FieldCollector()
///     let title = fields.collect { () throws(FieldViolation) in try body.require("title", as: String.self, at: .root) }
///     let size = fields.collect { () throws(FieldViolation) in try body.optional("size", as: Double.self, at: .root) }
///     try fields.check()                      // throws FieldViolations listing both problems
///     guard let title, let size else { ... }  // unreachable after a passing check
public struct FieldCollector: Sendable {
    /// The violations recorded so far, in order.
    public private(set) var violations: [FieldViolation] = []

    /// An empty collector.
    public init() {}

    /// Runs `body`; returns its result, or records its violation and returns `nil`.
    public mutating func collect<T>(_ body: () throws(FieldViolation) -> T) -> T? {
        do {
            return try body()
        } catch {
            violations.append(error)
            return nil
        }
    }

    /// Records violations found some other way.
    public mutating func record(_ violations: [FieldViolation]) {
        self.violations.append(contentsOf: violations)
    }

    /// Records one violation.
    public mutating func record(_ violation: FieldViolation) {
        violations.append(violation)
    }

    /// Whether nothing has been recorded.
    public var isEmpty: Bool { violations.isEmpty }

    /// Throws every recorded violation at once, if there are any.
    public func check() throws(FieldViolations) {
        guard violations.isEmpty else { throw FieldViolations(violations) }
    }
}
