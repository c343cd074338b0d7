import ToolSupport
import Foundation
import Ink
import OCR

/// One rendered training line: its image and its ground truth.
struct TrainingLine {
    var id: String
    var text: String
    var image: GrayImage
}

/// Where rendered lines go.
protocol LineSink {
    mutating func add(_ line: TrainingLine) throws(ToolError)
    mutating func finish() throws(ToolError)
}

/// Writes `NAME.png` + `NAME.gt.txt` + `NAME.box` per line: the layout tesstrain expects, good
/// for looking at the images and for tools that take one image per line.
struct PNGSink: LineSink {
    let directory: String

    mutating func add(_ line: TrainingLine) throws(ToolError) {
        guard let png = PNGEncoder.encode(line.image) else { throw ToolError("cannot encode \(line.id)") }
        let base = "\(directory)/\(line.id)"
        try write(Data(png), to: base + ".png")
        try write(Data((line.text + "\n").utf8), to: base + ".gt.txt")
        try write(Data(BoxFile.lines(text: line.text, width: line.image.width, height: line.image.height, page: 0).utf8),
                  to: base + ".box")
    }

    mutating func finish() throws(ToolError) {}
}

/// Writes shards of `size` lines: `NAME-0000.tif` (multi-page), `NAME-0000.box` (one WordStr
/// line box per page) and `NAME-0000.gt.tsv` (page, id, text). `tesseract NAME-0000.tif
/// NAME-0000 --psm 13 lstm.train` then makes one `.lstmf` holding every line of the shard.
struct TIFFShardSink: LineSink {
    let directory: String
    let name: String
    let size: Int
    private var pending: [TrainingLine] = []
    private var shard = 0

    init(directory: String, name: String, size: Int) {
        self.directory = directory
        self.name = name
        self.size = max(size, 1)
    }

    mutating func add(_ line: TrainingLine) throws(ToolError) {
        pending.append(line)
        if pending.count >= size { try flush() }
    }

    mutating func finish() throws(ToolError) {
        if !pending.isEmpty { try flush() }
    }

    private mutating func flush() throws(ToolError) {
        let base = String(format: "%@/%@-%04d", directory, name, shard)
        try write(Data(TIFFWriter().encode(pending.map(\.image))), to: base + ".tif")
        var box = ""
        var manifest = ""
        for (page, line) in pending.enumerated() {
            box += BoxFile.lines(text: line.text, width: line.image.width, height: line.image.height, page: page)
            manifest += "\(page)\t\(line.id)\t\(line.text)\n"
        }
        try write(Data(box.utf8), to: base + ".box")
        try write(Data(manifest.utf8), to: base + ".gt.tsv")
        pending.removeAll(keepingCapacity: true)
        shard += 1
    }
}

/// Tesseract box files for whole-line training, as tesstrain writes them: one `WordStr` box
/// over the whole image carrying the line's text, then a tab box marking the end of the line.
enum BoxFile {
    static func lines(text: String, width: Int, height: Int, page: Int) -> String {
        "WordStr 0 0 \(width) \(height) \(page) #\(text)\n\t \(width) \(height) \(width + 1) \(height + 1) \(page)\n"
    }
}

private func write(_ data: Data, to path: String) throws(ToolError) {
    guard FileManager.default.createFile(atPath: path, contents: data) else { throw ToolError("cannot write \(path)") }
}
