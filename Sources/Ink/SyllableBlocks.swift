import Geometry

/// Groups strokes into the blocks a script like Hangul writes: each syllable is a block of
/// jamo, the final consonant *under* the initial and the vowel. Taken one stroke at a time, a
/// final consonant lies so far below the strokes beside it that the line segmenter would start
/// a new line with it; taken as blocks, a line's blocks share one baseline and one height, like
/// Latin letters.
///
/// A stroke joins the block written just before it when it overlaps the block horizontally,
/// the two together are at most `heightRatio` typical stroke heights tall (a syllable of three
/// stacked jamo is about 3; two lines of writing are usually more than 4), at most `widthRatio`
/// wide, and at most `gapRatio` lie between them. A stroke that instead overlaps the block
/// before that one (a final consonant under the initial, when the vowel beside it became a
/// block of its own) joins it and the block after it, within the same limits. Anything else
/// starts a new block, so a block stays within one line and a line of syllables is a row of
/// blocks. Then a block that hangs under the block written just before it and is followed by
/// one that goes back up joins it (`hangRatio`): a final consonant written far down.
///
/// Measured with `inkrender --syllable-blocks --list-skipped` on held-out ink of the Korean
/// training tools (training/RUNS.md, Korean "Levers"): reaching back over at most two blocks (four
/// before), no block wider than 4 typical stroke heights and hanging finals joined cut two
/// held-out lines stacked 1.2-1.6 line heights apart into a wrong number of lines 16 / 30 / 18
/// times in 400 instead of 35 / 62 / 47 (held-out font, unseen hands, loose blocks), and words
/// whose finals hang far down 8 times in 200 instead of 13.
struct SyllableBlocks {
    /// A run of consecutive strokes and the union of their boxes.
    struct Block {
        var strokes: [Int]
        var box: Rect
    }

    /// See the type's description.
    var limits: SyllableBlockLimits
    /// As in `LineSegmenter.Options`: what counts as a dot when the typical height is taken.
    var dotRatio: Double

    /// The blocks of the strokes `present` (indexes into `boxes`, in writing order).
    func group(_ present: [Int], boxes: [Rect]) -> [Block] {
        let typical = SegmentationState.typicalHeight(of: present.map { boxes[$0].height }, dotRatio: dotRatio) ?? .infinity
        var blocks: [Block] = []
        for index in present {
            let box = boxes[index]
            if let first = joinable(box, blocks, typical: typical) {
                Self.merge(&blocks, from: first, then: Block(strokes: [index], box: box))
            } else {
                blocks.append(Block(strokes: [index], box: box))
            }
        }
        return hangingPartsJoined(blocks, typical: typical)
    }

    /// The earliest of the last `lookback` blocks that `box` joins: the most recent one it
    /// overlaps horizontally, if it and every block after it fit in the limits together with `box`.
    private func joinable(_ box: Rect, _ blocks: [Block], typical: Double) -> Int? {
        var union = box
        for index in blocks.indices.reversed().prefix(limits.lookback) {
            let block = blocks[index].box
            union = union.union(block)
            let overlap = min(box.maxX, block.maxX) - max(box.minX, block.minX)
            guard overlap > 0 else { continue }
            let gap = max(0, box.minY - block.maxY, block.minY - box.maxY)
            return union.height <= limits.heightRatio * typical && gap <= limits.gapRatio * typical
                && union.width <= limits.widthRatio * typical ? index : nil
        }
        return nil
    }

    /// Blocks with a part hanging low joined: a block written right after another, starting
    /// below the other's middle (at most `hangRatio` under its bottom), under it (its centre
    /// within the other's width), lower than it (`hangHeightRatio`), the two together within
    /// `hangUnionRatio` and `widthRatio`, and followed by a block that goes back up above its
    /// top (the next syllable) or by nothing, is that syllable's final consonant written far
    /// down, not the start of a new line. The first syllable of a next line fails the last
    /// test: the rest of that line follows it at its own height.
    private func hangingPartsJoined(_ blocks: [Block], typical: Double) -> [Block] {
        guard limits.hangRatio > 0, blocks.count > 1 else { return blocks }
        var result: [Block] = [blocks[0]]
        for index in blocks.indices.dropFirst() {
            let part = blocks[index].box
            let next = index + 1 < blocks.count ? blocks[index + 1].box : nil
            guard next.map({ $0.center.y < part.minY }) ?? true else {
                result.append(blocks[index])
                continue
            }
            // The block above: the latest one, or it with the ones before within the reach (an
            // initial and a vowel side by side, each a block of its own).
            var upper = result[result.count - 1].box
            var joined: Int?
            for count in 1...min(limits.lookback, result.count) {
                if count > 1 { upper = upper.union(result[result.count - count].box) }
                if hangs(part, under: upper, typical: typical) {
                    joined = count
                    break
                }
            }
            if let joined {
                Self.merge(&result, from: result.count - joined, then: blocks[index])
            } else {
                result.append(blocks[index])
            }
        }
        return result
    }

    /// Replaces the blocks from `first` on by one block holding their strokes and then `last`'s.
    private static func merge(_ blocks: inout [Block], from first: Int, then last: Block) {
        var merged = blocks[first...].reduce(into: Block(strokes: [], box: last.box)) { block, next in
            block.strokes += next.strokes
            block.box = block.box.union(next.box)
        }
        merged.strokes += last.strokes
        blocks.removeSubrange(first...)
        blocks.append(merged)
    }

    /// Whether `part` hangs under `upper` as a final consonant written far down does.
    private func hangs(_ part: Rect, under upper: Rect, typical: Double) -> Bool {
        let union = upper.union(part)
        return part.minY >= upper.center.y
            && part.minY - upper.maxY <= limits.hangRatio * typical
            && part.center.x >= upper.minX && part.center.x <= upper.maxX
            && part.height <= limits.hangHeightRatio * upper.height
            && union.height <= limits.hangUnionRatio * typical && union.width <= limits.widthRatio * typical
    }
}

/// The limits of `SyllableBlocks`, in typical stroke heights (the median height of the strokes
/// that are not dots).
public struct SyllableBlockLimits: Sendable, Equatable {
    /// Tallest block. Default 4.
    public var heightRatio: Double
    /// Largest vertical gap between a stroke and the blocks it joins. Default 1.
    public var gapRatio: Double
    /// Widest block. Default 4 (a syllable is about 3 wide).
    public var widthRatio: Double
    /// How many of the latest blocks a stroke may reach back to. Default 2.
    public var lookback: Int
    /// Largest gap under a block that a hanging part may leave and still join it; 0 joins
    /// none. Default 2.5.
    public var hangRatio: Double
    /// A hanging part is at most this many times as high as the block above. Default 0.8.
    public var hangHeightRatio: Double
    /// A hanging part and the block above together are at most this high. Default 6.
    public var hangUnionRatio: Double

    /// Limits with the documented defaults, each overridable.
    public init(heightRatio: Double = 4, gapRatio: Double = 1, widthRatio: Double = 4, lookback: Int = 2,
                hangRatio: Double = 2.5, hangHeightRatio: Double = 0.8, hangUnionRatio: Double = 6) {
        self.heightRatio = heightRatio
        self.gapRatio = gapRatio
        self.widthRatio = widthRatio
        self.lookback = lookback
        self.hangRatio = hangRatio
        self.hangHeightRatio = hangHeightRatio
        self.hangUnionRatio = hangUnionRatio
    }
}
