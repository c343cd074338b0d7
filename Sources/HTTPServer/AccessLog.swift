import JSONKit
import CSystem
import Glibc
import Locking

/// One finished exchange, as logged and counted.
public struct AccessLogEntry: Sendable {
    public var timeMs: Int64
    public var requestID: String
    public var method: String
    public var path: Substring
    public var route: String
    public var status: Int
    public var bytes: Int
    public var durationMs: Double
    public var remoteAddress: String
}

/// Where structured log lines go. The server batches lines per event-loop iteration and hands
/// them over in one call, so a sink writes once per batch, not once per request.
public protocol LogSink: Sendable {
    func write(_ bytes: [UInt8])
}

/// Writes log lines to a file descriptor (standard output by default) with one write(2) per batch.
public struct FileDescriptorLogSink: LogSink {
    let fd: Int32
    public init(fd: Int32 = 1) { self.fd = fd }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}

/// Keeps lines in memory; for tests.
public final class MemoryLogSink: LogSink {
    private let storage = Lock<[UInt8]>([])
    public init() {}
    public func write(_ bytes: [UInt8]) { storage.withLock { $0.append(contentsOf: bytes) } }
    /// Every line written so far.
    public var lines: [String] {
        storage.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map(String.init)
    }
}

extension AccessLogEntry {
    /// Appends the entry as one JSON line, straight into bytes (this runs once per request).
    func appendJSONLine(to out: inout [UInt8]) {
        JSONWriter.appendLiteral("{\"time\":", to: &out)
        JSONWriter.appendInteger(Int(timeMs), to: &out)
        JSONWriter.appendLiteral(",\"level\":\"info\",\"msg\":\"request\",\"requestId\":", to: &out)
        JSONWriter.appendString(requestID, to: &out)
        JSONWriter.appendLiteral(",\"method\":", to: &out)
        JSONWriter.appendString(method, to: &out)
        JSONWriter.appendLiteral(",\"path\":", to: &out)
        JSONWriter.appendString(path, to: &out)   // the request's own bytes, not a copy
        if !route.isEmpty {
            JSONWriter.appendLiteral(",\"route\":", to: &out)
            JSONWriter.appendString(route, to: &out)
        }
        JSONWriter.appendLiteral(",\"status\":", to: &out)
        JSONWriter.appendInteger(status, to: &out)
        JSONWriter.appendLiteral(",\"bytes\":", to: &out)
        JSONWriter.appendInteger(bytes, to: &out)
        // Milliseconds with microsecond resolution, written as a decimal without Double formatting.
        let micros = Int64((durationMs * 1000).rounded())
        JSONWriter.appendLiteral(",\"durationMs\":", to: &out)
        JSONWriter.appendInteger(Int(micros / 1000), to: &out)
        out.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        if fraction < 100 { out.append(0x30) }
        if fraction < 10 { out.append(0x30) }
        JSONWriter.appendInteger(Int(fraction), to: &out)
        JSONWriter.appendLiteral(",\"remote\":", to: &out)
        JSONWriter.appendString(remoteAddress, to: &out)
        JSONWriter.appendLiteral("}\n", to: &out)
    }
}
