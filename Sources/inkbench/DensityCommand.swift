import ToolSupport
import Ink

/// `inkbench density`: each sample's strokes per line height (`StrokeDensity`), the measure of the
/// ink alone `auto` uses to tell Hangul from Latin (lines found with syllable blocks grouped).
enum DensityCommand {
    static let usage = """
        inkbench density FILE.jsonl... [--limit N] [--latin-lines]
          prints file, id and strokes per line height, tab-separated, one sample per line, as auto
          measures it
          --latin-lines  lines found as for Latin (no syllable blocks), not as auto finds them
        """

    static func run(_ arguments: ArraySlice<String>) throws(ToolError) {
        let args = try Arguments(arguments, valued: ["limit"])
        guard !args.positionals.isEmpty else { throw ToolError(usage) }
        var segmenter = LineSegmenter()
        segmenter.options.groupsSyllableBlocks = !args.has("latin-lines")
        for path in args.positionals {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            for sample in try Corpus.load(path, limit: try args.int("limit", default: Int.max)) {
                print("\(name)\t\(sample.id)\t\(StrokeDensity.strokesPerLineHeight(sample.strokes, segmenter: segmenter))")
            }
        }
    }
}
