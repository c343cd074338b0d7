import Locking

/// The first rendering's reading of each line, shared by the jobs of one `auto` request: the
/// chosen model reads an unsure choice again as it would alone, and that reading starts with the
/// line as its first job already read it (the same model, strokes and rendering read the same),
/// so it is taken from here instead of being read twice.
final class FirstReadings: Sendable {
    private struct Key: Hashable {
        var model: String
        var line: [Int]
        var variant: RenderVariant
    }

    private let readings = Lock<[Key: LineReading]>([:])

    subscript(model: String, line: [Int], variant: RenderVariant) -> LineReading? {
        get { readings.withLock { $0[Key(model: model, line: line, variant: variant)] } }
        set { readings.withLock { $0[Key(model: model, line: line, variant: variant)] = newValue } }
    }
}
