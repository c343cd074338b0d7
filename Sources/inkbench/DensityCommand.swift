import ToolSupport
import Ink

/// `inkbench density`: each sample's strokes per line height (`StrokeDensity`, the lines the
/// Latin segmentation finds), the ink-only measure `auto` uses to tell Hangul from Latin.
enum DensityCommand {
    static let usage = """
        inkbench density FILE.jsonl... [--limit N] [--blocks]
          prints file, id and strokes per line height, tab-separated, one sample per line
          --blocks  lines found as for Hangul (syllable blocks), not as for Latin
        """

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["limit"])
        guard !args.positionals.isEmpty else { throw ToolError(usage) }
        var segmenter = LineSegmenter()
        segmenter.options.groupsSyllableBlocks = args.has("blocks")
        for path in args.positionals {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            for sample in try Corpus.load(path, limit: try args.int("limit", default: Int.max)) {
                print("\(name)\t\(sample.id)\t\(StrokeDensity.strokesPerLineHeight(sample.strokes, segmenter: segmenter))")
            }
        }
    }
}
