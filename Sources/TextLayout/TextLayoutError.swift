/// Everything that can go wrong while loading fonts or measuring text.
///
/// Start-up errors (`fontDirectoryMissing`, `fontFileMissing`, `fontFileUnreadable`, `freeType`) name the file and the
/// Debian package so an operator can fix the machine; request errors (`unknownFamily`, `invalidArgument`,
/// `textTooLong`) carry what a client needs to correct its request.
public enum TextLayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configured font directory does not exist or cannot be read.
    case fontDirectoryMissing(path: String, debianPackage: String)
    /// A family's font file is missing from the font directory.
    case fontFileMissing(family: FontFamily, path: String, debianPackage: String)
    /// FreeType could not open a file as a font face (corrupt or not a font).
    case fontFileUnreadable(path: String, freeTypeError: Int32)
    /// A FreeType call failed outside face loading (library initialisation).
    case freeType(function: String, code: Int32)
    /// A style named a family that is not in ``FontFamily``.
    case unknownFamily(name: String, known: [String])
    /// A numeric argument is out of its documented range; `argument` is the parameter name (`size`, `tracking`,
    /// `lineHeight`, `lineLimit`) and `allowed` describes the range.
    case invalidArgument(argument: String, value: Double, allowed: String)
    /// The text exceeds ``TextLayoutLimits/maxTextUTF8Bytes``.
    case textTooLong(utf8Bytes: Int, limit: Int)

    /// A one-line, human-readable explanation suitable for logs and API error details.
    public var description: String {
        switch self {
        case let .fontDirectoryMissing(path, package):
            "font directory \(path) does not exist; install the Debian package \(package)"
        case let .fontFileMissing(family, path, package):
            "font file \(path) for family '\(family.rawValue)' is missing; install the Debian package \(package)"
        case let .fontFileUnreadable(path, code):
            "FreeType cannot open \(path) as a font (FreeType error \(code))"
        case let .freeType(function, code):
            "\(function) failed with FreeType error \(code)"
        case let .unknownFamily(name, known):
            "unknown font family '\(name)'; known families: \(known.joined(separator: ", "))"
        case let .invalidArgument(argument, value, allowed):
            "\(argument) \(value) is out of range; allowed: \(allowed)"
        case let .textTooLong(bytes, limit):
            "text is \(bytes) UTF-8 bytes; the limit is \(limit)"
        }
    }
}
