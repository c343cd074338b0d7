import CFreeType
import Locking

/// Owns one `FT_Library` and, through it, every face opened from it.
///
/// FreeType requires `FT_New_Face` and `FT_Done_Face` on one library to be serialised, so opening happens under this
/// object's lock. Faces are never closed one by one: `FT_Done_FreeType` in `deinit` frees the library together with
/// all its faces, and every ``FontFace`` keeps a strong reference to its library so no face outlives it.
final class FreeTypeLibrary: Sendable {
    /// The raw handle, reachable only under the lock.
    private struct Handle {
        var library: FT_Library
    }

    private let handle: Lock<Handle>

    /// Initialises FreeType.
    init() throws(TextLayoutError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else {
            throw .freeType(function: "FT_Init_FreeType", code: error)
        }
        handle = Lock(Handle(library: library))
    }

    deinit {
        handle.withLock { handle in
            _ = FT_Done_FreeType(handle.library)
        }
    }

    /// Opens face 0 of the font file at `path`.
    ///
    /// The returned face belongs to this library: the caller must not free it, and must serialise its own use of it
    /// (``FontFace`` does so with its own lock).
    func openFace(path: String) throws(TextLayoutError) -> FT_Face {
        let (face, error): (FT_Face?, FT_Error) = handle.withLock { handle in
            var face: FT_Face?
            let error = FT_New_Face(handle.library, path, 0, &face)
            return (face, error)
        }
        guard error == 0, let face else {
            throw .fontFileUnreadable(path: path, freeTypeError: error)
        }
        return face
    }
}
