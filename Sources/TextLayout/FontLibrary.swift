#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loaded fonts: one DejaVu face per ``FontFamily`` plus optional fallback faces.
///
/// Create one at start-up and share it: every face is loaded eagerly, so a broken installation fails at start-up with
/// an error naming the Debian package rather than on the first request. It is safe to use from any thread; each face
/// serialises its own FreeType calls.
public final class FontLibrary: Sendable {
    /// The configuration the library was loaded with.
    public let configuration: TextLayoutConfiguration
    /// Fallback files that were configured but could not be loaded; worth logging at start-up, never fatal.
    public let fallbackProblems: [TextLayoutError]

    private let faces: FaceSet
    private let fallbacks: [FontFamily: FontFace]

    /// Loads every family's face from `configuration.fontDirectory` and whatever fallback faces exist.
    ///
    /// - Throws: ``TextLayoutError/fontDirectoryMissing(path:debianPackage:)`` or
    ///   ``TextLayoutError/fontFileMissing(family:path:debianPackage:)`` naming `fonts-dejavu-core`,
    ///   ``TextLayoutError/fontFileUnreadable(path:freeTypeError:)`` for a file FreeType rejects.
    public init(configuration: TextLayoutConfiguration = TextLayoutConfiguration()) throws(TextLayoutError) {
        let directory = configuration.fontDirectory
        guard Self.isReadableDirectory(directory) else {
            throw .fontDirectoryMissing(path: directory, debianPackage: FontFamily.default.debianPackage)
        }
        let library = try FreeTypeLibrary()
        let cap = configuration.limits.maxCachedKerningPairs
        func load(_ family: FontFamily) throws(TextLayoutError) -> FontFace {
            let path = Self.join(directory, family.fileName)
            guard access(path, R_OK) == 0 else {
                throw .fontFileMissing(family: family, path: path, debianPackage: family.debianPackage)
            }
            return try FontFace(library: library, path: path, maxCachedKerningPairs: cap)
        }
        let faces = FaceSet(
            sans: try load(.sans), sansBold: try load(.sansBold),
            serif: try load(.serif), serifBold: try load(.serifBold),
            mono: try load(.mono), monoBold: try load(.monoBold)
        )
        var fallbacks: [FontFamily: FontFace] = [:]
        var problems: [TextLayoutError] = []
        if let fallbackDirectory = configuration.fallbackFontDirectory {
            for family in FontFamily.allCases {
                let path = Self.join(fallbackDirectory, family.fallbackFileName)
                guard access(path, R_OK) == 0 else {
                    problems.append(.fontFileMissing(
                        family: family, path: path, debianPackage: FontFamily.fallbackDebianPackage))
                    continue
                }
                do {
                    fallbacks[family] = try FontFace(library: library, path: path, maxCachedKerningPairs: cap)
                } catch {
                    problems.append(error)
                }
            }
        }
        self.configuration = configuration
        self.faces = faces
        self.fallbacks = fallbacks
        self.fallbackProblems = problems
    }

    /// The families for which a fallback face was loaded.
    public var fallbackFamilies: Set<FontFamily> { Set(fallbacks.keys) }

    /// The font's own vertical metrics at `size` points.
    ///
    /// `lineHeight` is the natural baseline-to-baseline distance (ascender + descender + line gap, scaled), used when a
    /// style sets no line height and for a field's minimum height.
    public func verticalMetrics(family: FontFamily, size: Double) -> VerticalMetrics {
        let face = self.face(family)
        let scale = size / Double(face.unitsPerEm)
        return VerticalMetrics(
            ascent: Double(face.ascender) * scale,
            descent: Double(face.descender) * scale,
            lineHeight: Double(face.lineSpacing) * scale
        )
    }

    /// The primary face of `family`; every family is loaded by `init`, so this never fails.
    func face(_ family: FontFamily) -> FontFace {
        faces[family]
    }

    /// The fallback face of `family`, if one was loaded.
    func fallback(_ family: FontFamily) -> FontFace? {
        fallbacks[family]
    }

    private static func join(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }

    private static func isReadableDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR && access(path, R_OK | X_OK) == 0
    }
}

/// One face per family, so looking a family up cannot fail.
private struct FaceSet: Sendable {
    let sans: FontFace
    let sansBold: FontFace
    let serif: FontFace
    let serifBold: FontFace
    let mono: FontFace
    let monoBold: FontFace

    subscript(family: FontFamily) -> FontFace {
        switch family {
        case .sans: sans
        case .sansBold: sansBold
        case .serif: serif
        case .serifBold: serifBold
        case .mono: mono
        case .monoBold: monoBold
        }
    }
}

/// A face's vertical metrics in points at one size.
public struct VerticalMetrics: Sendable, Equatable {
    /// Baseline to the top of the line box.
    public var ascent: Double
    /// Baseline to the bottom of the line box (positive).
    public var descent: Double
    /// Natural baseline-to-baseline distance: ascent + descent + line gap.
    public var lineHeight: Double

    /// Creates vertical metrics.
    public init(ascent: Double, descent: Double, lineHeight: Double) {
        self.ascent = ascent
        self.descent = descent
        self.lineHeight = lineHeight
    }
}
