/// A compact, lossless binary form of `[Stroke]` for storage.
///
/// Layout (all integers little-endian; values are IEEE-754 Float64, so a decoded stroke is
/// bit-for-bit the stroke that was encoded, which keeps re-rendering and re-recognition of
/// stored ink exactly reproducible):
///
///     "INK" 0x01                     magic and format version
///     u32 strokeCount
///     strokeCount × {
///         u32 pointCount             ≥ 1
///         u8  channels               bit 0: t present, bit 1: p present, other bits 0
///         f64 × pointCount  x
///         f64 × pointCount  y
///         f64 × pointCount  t        if bit 0
///         f64 × pointCount  p        if bit 1
///     }
///     u32 CRC-32 (IEEE 802.3) of every preceding byte
///
/// Float64 costs 16 bytes per x/y point (a large 100,000-point ink is 1.6 MB), which SQLite
/// stores without complaint; Float32 would lose precision at tablet coordinates in the
/// millions. The checksum catches bit rot and truncated copies before any value is trusted.
public enum InkCodec {
    /// The four leading bytes of every blob.
    static let magic: [UInt8] = [0x49, 0x4E, 0x4B, 0x01]
    static let hasTime: UInt8 = 1
    static let hasPressure: UInt8 = 2

    /// The binary form of `strokes`. Strokes are written with `pointCount` points; a stroke
    /// without points is skipped, since the format (like the decoder) requires at least one.
    public static func encode(_ strokes: [Stroke]) -> [UInt8] {
        let kept = strokes.filter { $0.pointCount > 0 }
        var size = magic.count + 4 + 4
        for stroke in kept {
            size += 5 + 8 * stroke.pointCount * (2 + channelCount(of: stroke))
        }
        var output: [UInt8] = []
        output.reserveCapacity(size)
        output.append(contentsOf: magic)
        appendUInt32(UInt32(kept.count), to: &output)
        for stroke in kept {
            let count = stroke.pointCount
            appendUInt32(UInt32(count), to: &output)
            output.append(flags(of: stroke))
            for channel in [stroke.x, stroke.y, timeChannel(of: stroke), pressureChannel(of: stroke)] {
                guard let channel else { continue }
                for value in channel.prefix(count) {
                    appendUInt64(value.bitPattern, to: &output)
                }
            }
        }
        appendUInt32(CRC32.checksum(output), to: &output)
        return output
    }

    /// Only channels whose length matches the stroke's point count are stored.
    private static func timeChannel(of stroke: Stroke) -> [Double]? {
        stroke.t.flatMap { $0.count >= stroke.pointCount ? $0 : nil }
    }

    private static func pressureChannel(of stroke: Stroke) -> [Double]? {
        stroke.p.flatMap { $0.count >= stroke.pointCount ? $0 : nil }
    }

    private static func flags(of stroke: Stroke) -> UInt8 {
        (timeChannel(of: stroke) != nil ? hasTime : 0) | (pressureChannel(of: stroke) != nil ? hasPressure : 0)
    }

    private static func channelCount(of stroke: Stroke) -> Int {
        (timeChannel(of: stroke) != nil ? 1 : 0) + (pressureChannel(of: stroke) != nil ? 1 : 0)
    }

    private static func appendUInt32(_ value: UInt32, to output: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }

    private static func appendUInt64(_ value: UInt64, to output: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }
}
