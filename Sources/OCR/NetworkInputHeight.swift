import Foundation

/// The height an installed model's LSTM network reads lines at: the height of its Input layer
/// (`[1,36,0,1 ...]` in Tesseract's Latin models and the pen-ink models, 48 in Tesseract's
/// Korean ones). Tesseract scales every line image to it; the pipeline draws Korean lines at it
/// (`BlockInkScale.model`) rather than letting a small drawing be scaled up.
///
/// Read from the file, not through Tesseract (its C API does not expose the network): the
/// `.traineddata` offset table (`TessdataManager`: an `Int32` entry count, then one `Int64`
/// offset per component, -1 when absent), then the start of the LSTM component, where the
/// network's `Series` is serialized with its `Input` layer first (`Network::Serialize`: type
/// name, two flag bytes, network flags, `ni`, `no`, weight count, layer name; then `Input`'s
/// shape: batch, height, width, depth). Every number is checked; anything else gives `nil`.
enum NetworkInputHeight {
    /// `TessdataType.TESSDATA_LSTM`.
    static let lstmComponent = 17
    /// How far into the LSTM component the Input layer may start (it is at byte 44 in every
    /// Tesseract 5 model; the `Series` name and flags come first).
    static let searchWindow = 512

    /// The network input height of the model file at `path`, or `nil` when it has no LSTM
    /// network or its layout is not the expected one.
    static func read(atPath path: String) -> Int? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let countBytes = try? file.read(upToCount: 4), countBytes.count == 4 else { return nil }
        let count = Int(integer(countBytes, at: 0, as: Int32.self))
        guard count > lstmComponent, count <= 64,
              let table = try? file.read(upToCount: 8 * count), table.count == 8 * count
        else { return nil }
        let offset = integer(table, at: 8 * lstmComponent, as: Int64.self)
        guard offset >= Int64(4 + 8 * count),
              (try? file.seek(toOffset: UInt64(offset))) != nil,
              let window = try? file.read(upToCount: searchWindow)
        else { return nil }
        return inputHeight(inNetwork: window)
    }

    /// The Input layer's height in the first bytes of a serialized network, or `nil`.
    static func inputHeight(inNetwork bytes: Data) -> Int? {
        let data = Data(bytes)  // indexes from 0
        let name = Data([5, 0, 0, 0] + Array("Input".utf8))
        guard let start = data.range(of: name)?.lowerBound else { return nil }
        let numbersAt = start + name.count + 2 + 4
        let shapeAt = numbersAt + 12 + name.count
        guard shapeAt + 16 <= data.count, data[(numbersAt + 12)..<shapeAt] == name else { return nil }
        let ni = integer(data, at: numbersAt, as: Int32.self), weights = integer(data, at: numbersAt + 8, as: Int32.self)
        let height = integer(data, at: shapeAt + 4, as: Int32.self), depth = integer(data, at: shapeAt + 12, as: Int32.self)
        guard ni == height, weights == 0, depth == 1, (8...512).contains(height) else { return nil }
        return Int(height)
    }

    /// The little-endian integer at `offset` bytes into `bytes`.
    private static func integer<T: FixedWidthInteger>(_ bytes: Data, at offset: Int, as type: T.Type) -> T {
        T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) })
    }
}
