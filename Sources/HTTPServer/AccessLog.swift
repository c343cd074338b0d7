import CSystem
import Glibc
import Synchronization

/// One finished exchange, as logged and counted.
public struct AccessLogEntry: Sendable {
    public var timeMs: Int64
    public var requestID: String
    public var method: String
    public var path: String
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
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}

/// Keeps lines in memory; for tests.
public final class MemoryLogSink: LogSink {
    private let storage = Mutex<[UInt8]>([])
    public init() {}
    public func write(_ bytes: [UInt8]) { storage.withLock { $0.append(contentsOf: bytes) } }
    /// Every line written so far.
    public var lines: [String] {
        storage.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map(String.init)
    }
}

extension AccessLogEntry {
    /// Appends the entry as one JSON line.
    func appendJSONLine(to out: inout [UInt8]) {
        var line = "{\"time\":\(timeMs),\"level\":\"info\",\"msg\":\"request\",\"requestId\":"
        ProblemResponse.appendJSONString(requestID, to: &line)
        line += ",\"method\":"
        ProblemResponse.appendJSONString(method, to: &line)
        line += ",\"path\":"
        ProblemResponse.appendJSONString(path, to: &line)
        if !route.isEmpty {
            line += ",\"route\":"
            ProblemResponse.appendJSONString(route, to: &line)
        }
        line += ",\"status\":\(status),\"bytes\":\(bytes),\"durationMs\":"
        line += String(Double(Int(durationMs * 1000)) / 1000)
        line += ",\"remote\":"
        ProblemResponse.appendJSONString(remoteAddress, to: &line)
        line += "}\n"
        out.append(contentsOf: line.utf8)
    }
}
