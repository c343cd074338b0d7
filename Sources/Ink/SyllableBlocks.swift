import Geometry

/// Groups strokes into the blocks a script like Hangul writes: each syllable is a block of
/// jamo, the final consonant *under* the initial and the vowel. Taken one stroke at a time, a
/// final consonant lies so far below the strokes beside it that the line segmenter would start
/// a new line with it; taken as blocks, a line's blocks share one baseline and one height, like
/// Latin letters.
///
/// A stroke joins the block written just before it when it overlaps the block horizontally,
/// the two together are at most `heightRatio` typical stroke heights tall (a syllable of three
/// stacked jamo is about 3; two lines of writing are usually more than 4) and at most `gapRatio`
/// lie between them. A stroke that instead overlaps one of the few blocks before that one (a
/// final consonant under the initial, when the vowel beside it became a block of its own) joins
/// it and every block after it, within the same limits. Anything else starts a new block, so a
/// block stays within one line and a line of syllables is a row of blocks.
///
/// Measured on ink of the Korean training fonts (`inkrender --syllable-blocks --list-skipped`):
/// 1,090 of 1,875 one-line samples split into too many lines stroke by stroke, 4 by blocks; of
/// 400 two-line samples stacked 1.2-1.6 line heights apart, 24 came out with a wrong line count.
struct SyllableBlocks {
    /// A run of consecutive strokes and the union of their boxes.
    struct Block {
        var strokes: [Int]
        var box: Rect
    }

    /// See the type's description.
    var heightRatio: Double
    /// How many of the latest blocks a stroke may reach back to. 4 covers an initial consonant
    /// of two strokes and a vowel of two, each a block of its own before the final joins them.
    var lookback = 4
    /// Largest vertical gap between a stroke and the blocks it joins, in typical stroke heights.
    var gapRatio: Double
    /// As in `LineSegmenter.Options`: what counts as a dot when the typical height is taken.
    var dotRatio: Double

    /// The blocks of the strokes `present` (indexes into `boxes`, in writing order).
    func group(_ present: [Int], boxes: [Rect]) -> [Block] {
        let typical = SegmentationState.typicalHeight(of: present.map { boxes[$0].height }, dotRatio: dotRatio)
        let limit = heightRatio * (typical ?? .infinity)
        let gapLimit = gapRatio * (typical ?? .infinity)
        var blocks: [Block] = []
        for index in present {
            let box = boxes[index]
            if let first = joinable(box, blocks, limit: limit, gapLimit: gapLimit) {
                let merged = blocks[first...].reduce(into: Block(strokes: [], box: box)) { block, next in
                    block.strokes += next.strokes
                    block.box = block.box.union(next.box)
                }
                blocks.removeSubrange(first...)
                blocks.append(Block(strokes: merged.strokes + [index], box: merged.box))
            } else {
                blocks.append(Block(strokes: [index], box: box))
            }
        }
        return blocks
    }

    /// The earliest of the last `lookback` blocks that `box` joins: the most recent one it
    /// overlaps horizontally, if it and every block after it fit in `limit` together with `box`.
    private func joinable(_ box: Rect, _ blocks: [Block], limit: Double, gapLimit: Double) -> Int? {
        var union = box
        for index in blocks.indices.reversed().prefix(lookback) {
            let block = blocks[index].box
            union = union.union(block)
            let overlap = min(box.maxX, block.maxX) - max(box.minX, block.minX)
            guard overlap > 0 else { continue }
            let gap = max(0, box.minY - block.maxY, block.minY - box.maxY)
            return union.height <= limit && gap <= gapLimit ? index : nil
        }
        return nil
    }
}
