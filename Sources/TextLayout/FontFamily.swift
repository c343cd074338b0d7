/// The closed set of font families a sticker style may name.
///
/// Each family maps to one file of Debian's `fonts-dejavu-core` package, so the service renders and measures the
/// same way on every machine that has that package. The raw value is the name used in the HTTP API.
public enum FontFamily: String, CaseIterable, Sendable, Hashable, Codable {
    /// DejaVu Sans.
    case sans = "sans"
    /// DejaVu Sans Bold: the default, standing in for the bold geometric sans (Futura-Bold) of the original design.
    case sansBold = "sans-bold"
    /// DejaVu Serif.
    case serif = "serif"
    /// DejaVu Serif Bold.
    case serifBold = "serif-bold"
    /// DejaVu Sans Mono.
    case mono = "mono"
    /// DejaVu Sans Mono Bold.
    case monoBold = "mono-bold"

    /// The family used when a style names none.
    public static let `default`: FontFamily = .sansBold

    /// The API names of every family, in declaration order (used in error messages and documentation).
    public static var knownNames: [String] { allCases.map(\.rawValue) }

    /// Parses an API family name.
    ///
    /// - Throws: ``TextLayoutError/unknownFamily(name:known:)`` listing the known names, so a client learns the
    ///   vocabulary from the error (the app answers 422 with it).
    public init(name: String) throws(TextLayoutError) {
        guard let family = FontFamily(rawValue: name) else {
            throw .unknownFamily(name: name, known: FontFamily.knownNames)
        }
        self = family
    }

    /// The font file's name inside ``TextLayoutConfiguration/fontDirectory``.
    public var fileName: String {
        switch self {
        case .sans: "DejaVuSans.ttf"
        case .sansBold: "DejaVuSans-Bold.ttf"
        case .serif: "DejaVuSerif.ttf"
        case .serifBold: "DejaVuSerif-Bold.ttf"
        case .mono: "DejaVuSansMono.ttf"
        case .monoBold: "DejaVuSansMono-Bold.ttf"
        }
    }

    /// The Debian package that installs ``fileName``; named in start-up errors so an operator knows what to install.
    public var debianPackage: String { "fonts-dejavu-core" }

    /// The file name, inside ``TextLayoutConfiguration/fallbackFontDirectory``, of the face consulted for characters
    /// DejaVu lacks (Hangul above all).
    ///
    /// Nanum (Debian's `fonts-nanum`, about 10 MB) is used rather than Noto CJK (hundreds of MB): it covers Hangul
    /// and the common CJK punctuation, which is what handwriting recognised as Korean produces. Its Gothic faces match
    /// the sans families, Myeongjo the serif ones, and Gothic Coding the monospaced ones.
    public var fallbackFileName: String {
        switch self {
        case .sans: "NanumGothic.ttf"
        case .sansBold: "NanumGothicBold.ttf"
        case .serif: "NanumMyeongjo.ttf"
        case .serifBold: "NanumMyeongjoBold.ttf"
        case .mono: "NanumGothicCoding.ttf"
        case .monoBold: "NanumGothicCodingBold.ttf"
        }
    }

    /// The Debian package that installs ``fallbackFileName``.
    public static let fallbackDebianPackage = "fonts-nanum"
}
