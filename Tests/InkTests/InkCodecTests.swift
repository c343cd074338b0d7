import Testing
@testable import Ink

@Suite struct InkCodecTests {
    private let strokes = [
        Stroke(x: [1.5, -2.25, 1e7], y: [0, 0.1, -3], t: [0, 16, 33], p: [0, 0.5, 1]),
        Stroke(x: [42], y: [43]),
        Stroke(x: [5, 6], y: [7, 8], t: [100, 100]),
        Stroke(x: [9, 10], y: [11, 12], p: [0.25, 0.75]),
    ]

    @Test func roundTripsExactly() throws {
        let blob = InkCodec.encode(strokes)
        #expect(try InkCodec.decode(blob) == strokes)
        // Header 8 + per stroke 5 + 8 × points × channels + CRC 4.
        #expect(blob.count == 8 + (5 + 8 * 3 * 4) + (5 + 8 * 2) + (5 + 8 * 2 * 3) + (5 + 8 * 2 * 3) + 4)
        #expect(try InkCodec.decode(InkCodec.encode([])) == [])
    }

    @Test func roundTripsCorpusInk() throws {
        for sample in try Corpus.samples("script.jsonl").prefix(50) {
            #expect(try InkCodec.decode(InkCodec.encode(sample.strokes)) == sample.strokes)
        }
    }

    @Test func checksumMatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func everyTruncationIsRejected() {
        let blob = InkCodec.encode(strokes)
        for length in 0..<blob.count {
            #expect(throws: InkCodecError.self) { try InkCodec.decode(Array(blob.prefix(length))) }
        }
    }

    @Test func everySingleBitFlipIsRejected() {
        let blob = InkCodec.encode(Array(strokes.prefix(2)))
        for byte in blob.indices {
            for bit in 0..<8 {
                var garbled = blob
                garbled[byte] ^= 1 << bit
                #expect(throws: InkCodecError.self) { try InkCodec.decode(garbled) }
            }
        }
    }

    /// A blob with a correct checksum over arbitrary contents, to reach the structural checks.
    private func sealed(_ body: [UInt8]) -> [UInt8] {
        var blob = body
        withUnsafeBytes(of: CRC32.checksum(body).littleEndian) { blob.append(contentsOf: $0) }
        return blob
    }

    @Test func structuralProblemsAreNamed() {
        let good = Array(InkCodec.encode([Stroke(x: [1], y: [2])]).dropLast(4))
        #expect(throws: InkCodecError(.badMagic, at: 0)) { try InkCodec.decode(sealed([0x50] + good.dropFirst())) }
        var version = good
        version[3] = 9
        #expect(throws: InkCodecError(.unsupportedVersion(9), at: 3)) { try InkCodec.decode(sealed(version)) }
        #expect(throws: InkCodecError(.trailingBytes, at: good.count)) { try InkCodec.decode(sealed(good + [0])) }
        var flags = good
        flags[12] = 0x80
        #expect(throws: InkCodecError(.unknownChannels(0x80), at: 12)) { try InkCodec.decode(sealed(flags)) }
        var empty = good
        empty.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        #expect(throws: InkCodecError(.emptyStroke, at: 8)) { try InkCodec.decode(sealed(empty)) }
        var nan = good
        withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { nan.replaceSubrange(13..<21, with: $0) }
        #expect(throws: InkCodecError(.nonFiniteValue, at: 13)) { try InkCodec.decode(sealed(nan)) }
        var huge = good
        huge.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: InkCodecError(.truncated, at: 4)) { try InkCodec.decode(sealed(huge)) }
    }
}
