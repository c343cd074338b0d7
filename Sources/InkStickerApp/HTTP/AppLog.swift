import CSystem
import HTTPServer
import JSONKit

/// Structured application log lines (JSON, one per line) next to the access log.
public final class AppLog: Sendable {
    private let sink: any LogSink

    public init(sink: any LogSink) { self.sink = sink }

    public func info(_ message: String, _ fields: [String: String] = [:]) { write("info", message, fields) }
    public func warning(_ message: String, _ fields: [String: String] = [:]) { write("warning", message, fields) }
    public func error(_ message: String, _ fields: [String: String] = [:]) { write("error", message, fields) }

    private func write(_ level: String, _ message: String, _ fields: [String: String]) {
        let members: [(String, JSONValue)] = [("time", .number(Double(csys_wall_ms()))), ("level", .string(level)),
                                              ("msg", .string(message))]
        var line = JSONWriter.write(.object(members + fields.sorted(by: { $0.key < $1.key }).map { ($0.key, .string($0.value)) }))
        line.append(UInt8(ascii: "\n"))
        sink.write(line)
    }
}
