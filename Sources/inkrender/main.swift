import ToolSupport
import Foundation
import Ink
import OCR

// inkrender: JSON-lines ink → the service's line images + ground truth, for Tesseract training.

let usage = """
    usage: inkrender FILE.jsonl... --out DIR [options]
      --name NAME          output name prefix (default: first file's name)
      --format tif|png     tif: multi-page shards + box + gt.tsv (default); png: one file per line
      --shard-size N       lines per tif shard (default 500)
      --copies N           renders per sample (default 1)
      --plain-fraction F   share of renders drawn exactly as the service does (default 0.3)
      --best-fraction F    share of jittered renders based on a quality-best rendering (default 0.3)
      --seed S             augmentation seed (default 1)
      --hint text|digits|number   the character hint the service would get (default text)
      --limit N            first N samples of each file
      --list-skipped       print each skipped sample's id and line counts to stderr
      --syllable-blocks    segment lines by syllable blocks, as the service does for Korean models
      --block-height-ratio R, --block-gap-ratio R, --block-width-ratio R, --block-hang-ratio R,
      --block-lookback N   the blocks' limits (typical stroke heights; blocks a stroke may reach
                           back to), as SyllableBlockLimits has them (default: the service's)
      --block-margin-scale X   the margin of ink split by syllable blocks, as the service's
                           option of that name (default: the service's)
      --input-height H     the lines are for a network reading lines H pixels high: every line
                           (split by syllable blocks or not) is drawn that high, as the service
                           draws it for such a model (default: as high as other lines, 38)
      --width-scale F      text, long-text and number lines drawn F times as wide as the
                           service's default stretch draws them (its --text-width-scale,
                           --long-text-width-scale and --numeric-width-scale times F; default 1)
    A sample is used only when the service finds as many lines in its ink as its text has
    (text lines split at newlines), each drawn as a single image.
    """

struct Counts {
    var samples = 0
    var lines = 0
    var skippedLineCount = 0
    var skippedSplit = 0
    var skippedEmpty = 0
    var rejected = 0
}

func run(_ arguments: ArraySlice<String>) throws(ToolError) {
    let args = try Arguments(arguments, valued: ["out", "name", "format", "shard-size", "copies", "plain-fraction",
                                                 "best-fraction", "seed", "hint", "limit",
                                                 "block-height-ratio", "block-gap-ratio", "block-margin-scale", "input-height", "block-lookback", "block-width-ratio", "block-hang-ratio",
                                                 "width-scale"])
    guard !args.positionals.isEmpty, let directory = args.string("out") else { throw ToolError(usage) }
    guard let hint = CharacterHint(rawValue: args.string("hint") ?? "text") else { throw ToolError("unknown --hint") }
    let limit = try args.int("limit", default: 0)
    let copies = max(1, try args.int("copies", default: 1))
    let seed = UInt64(max(0, try args.int("seed", default: 1)))
    var augmentation = Augmentation()
    augmentation.plainFraction = try args.double("plain-fraction", default: augmentation.plainFraction)
    augmentation.bestRenderFraction = try args.double("best-fraction", default: augmentation.bestRenderFraction)
    do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
        throw ToolError("cannot create \(directory): \(error)")
    }
    let name = args.string("name")
        ?? URL(fileURLWithPath: args.positionals[0]).deletingPathExtension().lastPathComponent
    var sink: any LineSink
    switch args.string("format") ?? "tif" {
    case "tif": sink = TIFFShardSink(directory: directory, name: name, size: try args.int("shard-size", default: 500))
    case "png": sink = PNGSink(directory: directory)
    default: throw ToolError("--format is tif or png")
    }

    // The service's own imaging with the service's default options.
    var imager = LineImager()
    imager.options.segmentation.groupsSyllableBlocks = args.has("syllable-blocks")
    var limits = imager.options.segmentation.blocks
    limits.heightRatio = try args.double("block-height-ratio", default: limits.heightRatio)
    limits.gapRatio = try args.double("block-gap-ratio", default: limits.gapRatio)
    limits.widthRatio = try args.double("block-width-ratio", default: limits.widthRatio)
    limits.lookback = try args.int("block-lookback", default: limits.lookback)
    limits.hangRatio = try args.double("block-hang-ratio", default: limits.hangRatio)
    imager.options.segmentation.blocks = limits
    imager.blockMarginScale = try args.double("block-margin-scale", default: RecognitionOptions().blockMarginScale)
    if args.string("input-height") != nil {
        imager.blockInkScale = BlockInkScale.model.scale(
            networkInputHeight: try args.int("input-height", default: 0),
            lineHeight: imager.renderOptions(for: RecognitionOptions().render).imageHeight)
        imager.lineInkScale = imager.blockInkScale
    }
    var options = RecognitionOptions()
    let widthScale = try args.double("width-scale", default: 1)
    options.textWidthScale *= widthScale
    options.longTextWidthScale = options.longTextWidthScale.map { $0 * widthScale }
    options.numericWidthScale *= widthScale
    let imaging = RecognitionImaging(imager: imager, options: options)
    var counts = Counts()
    for path in args.positionals {
        for sample in try Corpus.load(path, limit: limit > 0 ? limit : nil, rejected: &counts.rejected) {
            counts.samples += 1
            let texts = sample.text.split(separator: "\n", omittingEmptySubsequences: true)
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                .filter { !$0.isEmpty }
            guard !texts.isEmpty else { counts.skippedEmpty += 1; continue }
            for copy in 0..<copies {
                var rng = SplitMix64(seed: SplitMix64.seed(seed, id: sample.id, copy: copy))
                let (strokes, variant) = augmentation.apply(to: sample.strokes, options: imaging.options, using: &rng)
                let ink = imaging.prepare(strokes, hint: hint)
                guard ink.lines.lines.count == texts.count else {
                    counts.skippedLineCount += 1
                    if args.has("list-skipped") {
                        FileHandle.standardError.write(Data("skipped \(sample.id): \(ink.lines.lines.count) lines, text has \(texts.count)\n".utf8))
                    }
                    continue
                }
                var images: [GrayImage] = []
                for index in ink.lines.lines.indices {
                    let pieces = imaging.render(ink, line: index, variant: variant)
                    guard pieces.count == 1, let piece = pieces.first, piece.image.width > 0, piece.image.height > 0 else { break }
                    images.append(piece.image)
                }
                guard images.count == texts.count else { counts.skippedSplit += 1; continue }
                for (index, image) in images.enumerated() {
                    let id = "\(sample.id)-\(copy)-\(index)".map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
                    try sink.add(TrainingLine(id: String(id), text: texts[index], image: image))
                    counts.lines += 1
                }
            }
        }
    }
    try sink.finish()
    FileHandle.standardError.write(Data("""
        inkrender \(name): \(counts.samples) samples → \(counts.lines) lines; skipped: \(counts.skippedLineCount) line-count \
        mismatch, \(counts.skippedSplit) split lines, \(counts.skippedEmpty) empty texts, \(counts.rejected) inks \
        the service rejects

        """.utf8))
}

do {
    try run(CommandLine.arguments.dropFirst())
} catch {
    FileHandle.standardError.write(Data("inkrender: \(error)\n".utf8))
    exit(2)
}
