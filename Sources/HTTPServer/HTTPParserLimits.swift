/// Size limits applied while parsing a request. Every limit has a documented default.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Longest request line (method, target, version); longer is 414 URI Too Long.
    public var maxRequestLineBytes: Int = 8 * 1024
    /// Longest head (request line and all header fields); larger is 431.
    public var maxHeaderBytes: Int = 32 * 1024
    /// Most header fields in one request; more is 431.
    public var maxHeaderCount: Int = 100
    /// Largest body accepted by default; larger is 413. Handlers may lower it per request.
    public var maxBodyBytes: Int = 4 * 1024 * 1024
    /// Longest chunk-size line (with extensions) and total trailer section size.
    public var maxChunkLineBytes: Int = 1024
    public var maxTrailerBytes: Int = 8 * 1024

    public init() {}
}
