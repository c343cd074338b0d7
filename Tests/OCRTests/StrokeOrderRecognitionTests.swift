import Testing
@testable import OCR

/// What the service reads from Hangul does not depend on the order strokes arrive in: the same
/// ink sent reversed, or with its strokes sorted from top to bottom, reads exactly as written,
/// each word pointing at the same request strokes.
@Suite(.serialized) struct StrokeOrderRecognitionTests {
    /// `sample` with its strokes in `order` (writing-order indexes).
    private func reordered(_ sample: CorpusSample, _ order: [Int]) -> CorpusSample {
        CorpusSample(id: sample.id, text: sample.text, strokes: order.map { sample.strokes[$0] })
    }

    private func orders(_ sample: CorpusSample) -> [[Int]] {
        let indexes = Array(sample.strokes.indices)
        let top = indexes.sorted { (sample.strokes[$0].map(\.y).min() ?? 0, $0) < (sample.strokes[$1].map(\.y).min() ?? 0, $1) }
        return [indexes.reversed(), top]
    }

    @Test(arguments: [("hangul", "hangul-lines.jsonl", "kor"), ("hangul", "hangul-words.jsonl", "kor")])
    func readsTheSameWhateverTheOrder(folder: String, file: String, language: String) throws {
        let samples = Array(try Corpus.samples(file, folder: folder).prefix(8))
        try #require(!samples.isEmpty)
        let written = try ShippedModelTests.recognitions(samples, language: language)
        for order in [0, 1] {
            let moved = samples.map { reordered($0, orders($0)[order]) }
            let read = try ShippedModelTests.recognitions(moved, language: language)
            for index in samples.indices {
                #expect(read[index]?.text == written[index]?.text, "\(file) \(samples[index].id), order \(order)")
                // Word strokes are request indexes: mapped back, they are the same strokes.
                let back = orders(samples[index])[order]
                let words = read[index]?.lines.flatMap(\.words).map { Set($0.strokes.map { back[$0] }) }
                #expect(words == written[index]?.lines.flatMap(\.words).map { Set($0.strokes) }, "\(samples[index].id)")
            }
        }
    }
}
