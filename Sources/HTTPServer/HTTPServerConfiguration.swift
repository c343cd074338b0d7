/// Everything that shapes the server's behaviour, each with a documented default.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind; `127.0.0.1` by default so nothing is exposed by accident.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free port (read it back from `HTTPServer.port`).
    public var port: Int = 8080
    /// Number of event-loop threads. They only do socket I/O and cheap handlers.
    public var eventLoops: Int = 1
    /// Parser limits (request line, head, body sizes).
    public var limits = HTTPParserLimits()
    /// Most connections open at once; beyond it new connections get 503 and are closed.
    public var maxConnections: Int = 4096
    /// Time allowed from the first byte of a request to the end of its head; then 408 and close.
    public var headerTimeout: Duration = .seconds(10)
    /// Time allowed to receive a request body after its head; then 408 and close.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long an idle keep-alive connection is kept open.
    public var keepAliveTimeout: Duration = .seconds(15)
    /// How long a response may wait for the client to read it before the connection is dropped.
    public var writeTimeout: Duration = .seconds(30)
    /// Lingering close (RFC 9112 §9.6, like nginx's `lingering_close`): after an early error
    /// response (413, 431, 400, 408) the client may still be sending its request. Closing at once
    /// would make the client's kernel answer the rest with a reset, which discards the response
    /// before the client reads it. So the server shuts down its write side and reads and discards
    /// for at most `lingeringTime` in all, `lingeringTimeout` between reads and
    /// `lingeringBytes` bytes, then closes. Zero `lingeringTime` closes at once.
    public var lingeringTime: Duration = .seconds(30)
    /// Longest wait for the next bytes of a lingering client (nginx `lingering_timeout`).
    public var lingeringTimeout: Duration = .seconds(5)
    /// Most bytes read and discarded from a lingering client.
    public var lingeringBytes: Int = 64 * 1024 * 1024
    /// Most bytes queued for one streaming response before the client is considered too slow and dropped.
    public var maxStreamBacklogBytes: Int = 1024 * 1024
    /// Listen backlog passed to listen(2).
    public var backlog: Int32 = 1024

    public init() {}
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
