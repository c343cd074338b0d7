extension InkCodec {
    /// Strokes from a blob made by `encode`. Throws on a wrong magic or version, a checksum
    /// mismatch, truncation, trailing bytes, unknown channel bits, an empty stroke or a
    /// non-finite value.
    public static func decode(_ bytes: [UInt8]) throws(InkCodecError) -> [Stroke] {
        let headerSize = magic.count + 4
        guard bytes.count >= headerSize + 4 else { throw InkCodecError(.truncated, at: bytes.count) }
        guard bytes.starts(with: magic.prefix(3)) else { throw InkCodecError(.badMagic, at: 0) }
        guard bytes[3] == magic[3] else { throw InkCodecError(.unsupportedVersion(bytes[3]), at: 3) }
        let bodyEnd = bytes.count - 4
        let stored = readUInt32(bytes, at: bodyEnd)
        guard CRC32.checksum(bytes[..<bodyEnd]) == stored else { throw InkCodecError(.checksumMismatch, at: bodyEnd) }

        var offset = magic.count
        let strokeCount = Int(readUInt32(bytes, at: offset))
        offset += 4
        // Each stroke needs at least 5 header bytes and 16 bytes of x/y: a garbled count
        // cannot make us reserve more than the blob could hold.
        guard strokeCount <= (bodyEnd - offset) / 21 else { throw InkCodecError(.truncated, at: offset - 4) }
        var strokes: [Stroke] = []
        strokes.reserveCapacity(strokeCount)
        for _ in 0..<strokeCount {
            guard bodyEnd - offset >= 5 else { throw InkCodecError(.truncated, at: offset) }
            let pointCount = Int(readUInt32(bytes, at: offset))
            let flags = bytes[offset + 4]
            guard pointCount > 0 else { throw InkCodecError(.emptyStroke, at: offset) }
            guard flags & ~(hasTime | hasPressure) == 0 else { throw InkCodecError(.unknownChannels(flags), at: offset + 4) }
            offset += 5
            let channels = 2 + (flags & hasTime != 0 ? 1 : 0) + (flags & hasPressure != 0 ? 1 : 0)
            guard (bodyEnd - offset) / 8 / channels >= pointCount else { throw InkCodecError(.truncated, at: offset) }
            let x = try readDoubles(bytes, at: &offset, count: pointCount)
            let y = try readDoubles(bytes, at: &offset, count: pointCount)
            let t = flags & hasTime != 0 ? try readDoubles(bytes, at: &offset, count: pointCount) : nil
            let p = flags & hasPressure != 0 ? try readDoubles(bytes, at: &offset, count: pointCount) : nil
            strokes.append(Stroke(x: x, y: y, t: t, p: p))
        }
        guard offset == bodyEnd else { throw InkCodecError(.trailingBytes, at: offset) }
        return strokes
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// `count` Float64 values at `offset` (bounds already checked by the caller).
    private static func readDoubles(_ bytes: [UInt8], at offset: inout Int, count: Int) throws(InkCodecError) -> [Double] {
        let start = offset
        let values = bytes.withUnsafeBytes { raw in
            [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count {
                    let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8 * index, as: UInt64.self))
                    buffer[index] = Double(bitPattern: bits)
                }
                initialized = count
            }
        }
        if let bad = values.firstIndex(where: { !$0.isFinite }) {
            throw InkCodecError(.nonFiniteValue, at: start + 8 * bad)
        }
        offset += 8 * count
        return values
    }
}

/// Why a stored ink blob could not be decoded.
public struct InkCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the blob.
    public enum Reason: Sendable, Equatable {
        /// The blob ends before the data its header promises.
        case truncated
        /// The blob does not start with "INK".
        case badMagic
        /// A format version this code does not read.
        case unsupportedVersion(UInt8)
        /// The CRC-32 trailer does not match the contents.
        case checksumMismatch
        /// A stroke with zero points.
        case emptyStroke
        /// Channel bits this version does not define.
        case unknownChannels(UInt8)
        /// NaN or infinity where a coordinate, time or pressure should be.
        case nonFiniteValue
        /// Bytes left over after the last stroke.
        case trailingBytes
    }

    /// What is wrong.
    public let reason: Reason
    /// The byte offset where it was detected.
    public let offset: Int

    /// An error at `offset`.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// "ink blob: truncated at byte 12".
    public var description: String { "ink blob: \(reason) at byte \(offset)" }
}
