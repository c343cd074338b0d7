import CFreeType
import Locking

/// One loaded font face with its metric caches.
///
/// FreeType's rule is that an `FT_Face` may be used by one thread at a time, while `FT_Load_Glyph` and its siblings
/// on *different* faces of one library may run concurrently. So every FreeType call on this face happens under this
/// object's lock, together with the caches it fills, and two measurements in different families never wait for
/// each other. Vertical metrics are read once at load time and are immutable.
///
/// All values are in font units (unscaled, unhinted): a measurement sums integers and scales once, so widths are
/// exactly proportional to the font size and no 26.6 rounding creeps in.
final class FontFace: Sendable {
    /// The file the face was loaded from.
    let path: String
    /// Font units per em (2048 for DejaVu, 1000 for Nanum).
    let unitsPerEm: Int
    /// Distance from the baseline to the top of the line box, in font units (positive).
    let ascender: Int
    /// Distance from the baseline to the bottom of the line box, in font units (positive; FreeType's is negative).
    let descender: Int
    /// Baseline-to-baseline distance, in font units: ascender + descender + line gap (FreeType's `height`).
    let lineSpacing: Int
    /// Whether the face has a `kern` table that `FT_Get_Kerning` reads.
    let hasKerning: Bool
    /// The advance of glyph 0 (`.notdef`), used for characters no face has.
    let notdefAdvance: Int

    /// Keeps the `FT_Library` (and with it this face's memory) alive as long as the face.
    private let library: FreeTypeLibrary
    private let state: Lock<FaceState>

    /// Opens the face at `path` from `library`.
    init(library: FreeTypeLibrary, path: String, maxCachedKerningPairs: Int) throws(TextLayoutError) {
        let face = try library.openFace(path: path)
        let record = face.pointee
        self.library = library
        self.path = path
        // Bitmap-only faces report 0 units per em; guard so scaling never divides by zero.
        unitsPerEm = max(1, Int(record.units_per_EM))
        ascender = Int(record.ascender)
        descender = -Int(record.descender)
        lineSpacing = Int(record.height)
        hasKerning = (record.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
        var state = FaceState(
            face: face,
            glyphCount: max(0, Int(record.num_glyphs)),
            hasKerning: hasKerning,
            maxCachedKerningPairs: maxCachedKerningPairs
        )
        notdefAdvance = state.advance(of: 0)
        self.state = Lock(state)
    }

    /// Runs `body` with exclusive access to the face and its caches.
    func withState<Result: Sendable>(_ body: (inout FaceState) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}

/// The mutable part of a ``FontFace``: the FreeType handle and what has been learned from it.
struct FaceState {
    /// Sentinel for "not looked up yet" in ``glyphByScalar``.
    private static let unknownGlyph = UInt32.max
    /// Sentinel for "not looked up yet" in ``advanceByGlyph``.
    private static let unknownAdvance = Int32.min
    /// Scalars below this get a flat charmap cache: Latin, Greek, Cyrillic, punctuation and symbols, 48 KB per face.
    /// Rarer scalars go to `FT_Get_Char_Index` each time, which is a binary search in the cmap and fast enough.
    private static let flatCharmapLimit: UInt32 = 0x3000

    private let face: FT_Face
    private let hasKerning: Bool
    private let maxCachedKerningPairs: Int
    private var glyphByScalar: [UInt32]
    /// Indexed by glyph id; bounded by the font's glyph count.
    private var advanceByGlyph: [Int32]
    private var kerningByPair: [UInt64: Int32] = [:]

    init(face: FT_Face, glyphCount: Int, hasKerning: Bool, maxCachedKerningPairs: Int) {
        self.face = face
        self.hasKerning = hasKerning
        self.maxCachedKerningPairs = max(0, maxCachedKerningPairs)
        glyphByScalar = Array(repeating: Self.unknownGlyph, count: Int(Self.flatCharmapLimit))
        advanceByGlyph = Array(repeating: Self.unknownAdvance, count: glyphCount)
    }

    /// The glyph id for `scalar`, 0 when the face has none.
    mutating func glyph(for scalar: Unicode.Scalar) -> UInt32 {
        let value = scalar.value
        guard value < Self.flatCharmapLimit else {
            return UInt32(FT_Get_Char_Index(face, FT_ULong(value)))
        }
        let cached = glyphByScalar[Int(value)]
        if cached != Self.unknownGlyph { return cached }
        let glyph = UInt32(FT_Get_Char_Index(face, FT_ULong(value)))
        glyphByScalar[Int(value)] = glyph
        return glyph
    }

    /// The horizontal advance of `glyph` in font units (its `hmtx` entry, unhinted).
    mutating func advance(of glyph: UInt32) -> Int {
        let index = Int(glyph)
        if index < advanceByGlyph.count {
            let cached = advanceByGlyph[index]
            if cached != Self.unknownAdvance { return Int(cached) }
        }
        // FT_LOAD_NO_SCALE implies no hinting and no bitmaps: advance.x is then the raw design advance.
        let error = FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE))
        // A glyph that fails to load (a damaged font) measures as empty rather than failing the request.
        let advance = error == 0 ? Int32(clamping: face.pointee.glyph.pointee.advance.x) : 0
        if index < advanceByGlyph.count {
            advanceByGlyph[index] = advance
        }
        return Int(advance)
    }

    /// The kerning adjustment between two glyphs in font units (usually negative), 0 without a `kern` table.
    mutating func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        guard hasKerning else { return 0 }
        let key = UInt64(left) << 32 | UInt64(right)
        if let cached = kerningByPair[key] { return Int(cached) }
        var vector = FT_Vector()
        let error = FT_Get_Kerning(face, left, right, FT_KERNING_UNSCALED.rawValue, &vector)
        let value = error == 0 ? Int32(clamping: vector.x) : 0
        if kerningByPair.count < maxCachedKerningPairs {
            kerningByPair[key] = value
        }
        return Int(value)
    }
}
