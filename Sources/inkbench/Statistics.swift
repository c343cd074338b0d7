/// Percentiles of timings and the character error rate as `tools/eval.py` computes it.
enum Statistics {
    /// The `p`-th percentile (0...100) by nearest rank of sorted values; 0 for none.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Whitespace runs (newlines included) collapsed to single spaces, ends trimmed.
    static func normalize(_ text: String) -> [Character] {
        Array(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Three decimals.
    static func format3(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return String(scaled)
    }
}

/// Clock helpers.
extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
