extension Array where Element == Double {
    /// The middle value (of an even count, the higher of the two middle ones); 0 when empty.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = sorted()
        return sorted[sorted.count / 2]
    }
}
