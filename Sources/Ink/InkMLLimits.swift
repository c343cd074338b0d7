/// Bounds on the markup of an InkML document, beside the `InkLimits` on the ink it holds.
///
/// The HTTP layer already caps the body size; these keep a small document from being
/// expensive to read: the reader tracks open elements and definitions in memory, and a number
/// token is copied once when it needs the slow correctly-rounded conversion.
public struct InkMLLimits: Sendable, Equatable {
    /// Deepest element nesting; `<ink><trace/></ink>` has depth 2. Default 64.
    public var maxDepth: Int
    /// Most attributes on one element. Default 64.
    public var maxAttributes: Int
    /// Longest element or attribute name in bytes. Default 256.
    public var maxNameLength: Int
    /// Most channels in one trace format, regular and intermittent together. Default 32.
    public var maxChannels: Int
    /// Most identified definitions (trace formats, ink sources, contexts) in one document.
    /// Default 1,024.
    public var maxDefinitions: Int
    /// Longest number token in a trace, in bytes. Default 1,024.
    public var maxNumberLength: Int

    /// Limits with the documented defaults, each overridable.
    public init(
        maxDepth: Int = 64,
        maxAttributes: Int = 64,
        maxNameLength: Int = 256,
        maxChannels: Int = 32,
        maxDefinitions: Int = 1_024,
        maxNumberLength: Int = 1_024
    ) {
        self.maxDepth = maxDepth
        self.maxAttributes = maxAttributes
        self.maxNameLength = maxNameLength
        self.maxChannels = maxChannels
        self.maxDefinitions = maxDefinitions
        self.maxNumberLength = maxNumberLength
    }
}
