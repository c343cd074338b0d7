import CTesseract

/// How Tesseract splits the image before recognising it (its `--psm`).
///
/// Only the modes that make sense for ink are offered: orientation and script detection
/// (`osd.traineddata`) is never used because ink arrives upright.
public enum PageSegmentationMode: Sendable, Hashable, CaseIterable {
    /// One line of text: the normal mode for a normalised ink line.
    case singleLine
    /// One word: no space splitting, slightly faster on short input.
    case singleWord
    /// One line, skipping Tesseract's own line finding: for images that are already a clean line.
    case rawLine
    /// A uniform block of text (several lines).
    case singleBlock
    /// Full page layout analysis without orientation detection.
    case automatic
    /// As much text as possible in no particular order.
    case sparseText
    /// A single character.
    case singleCharacter

    var tessValue: TessPageSegMode {
        switch self {
        case .singleLine: PSM_SINGLE_LINE
        case .singleWord: PSM_SINGLE_WORD
        case .rawLine: PSM_RAW_LINE
        case .singleBlock: PSM_SINGLE_BLOCK
        case .automatic: PSM_AUTO
        case .sparseText: PSM_SPARSE_TEXT
        case .singleCharacter: PSM_SINGLE_CHAR
        }
    }
}
