/// Request ids: the client's `X-Request-Id` when it is short and plain, otherwise generated.
struct RequestIDGenerator {
    private let prefix: String
    private var counter: UInt64 = 0

    init(loopIndex: Int) {
        var rng = SystemRandomNumberGenerator()
        let random = String(rng.next() & 0xFFFF_FFFF, radix: 16)
        prefix = String(repeating: "0", count: 8 - random.count) + random + String(loopIndex, radix: 16)
    }

    mutating func next(clientValue: String?) -> String {
        if let value = clientValue, Self.isAcceptable(value) { return value }
        counter += 1
        return prefix + "-" + String(counter, radix: 16)
    }

    /// 1–128 characters of letters, digits and `-_.:`; anything else could poison logs.
    static func isAcceptable(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= 128 else { return false }
        return utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x3A
        }
    }
}
