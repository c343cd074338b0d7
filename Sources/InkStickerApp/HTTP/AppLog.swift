import CSystem
import HTTPServer

/// Structured application log lines (JSON, one per line) next to the access log.
public final class AppLog: Sendable {
    private let sink: any LogSink

    public init(sink: any LogSink) { self.sink = sink }

    public func info(_ message: String, _ fields: [String: String] = [:]) { write("info", message, fields) }
    public func warning(_ message: String, _ fields: [String: String] = [:]) { write("warning", message, fields) }
    public func error(_ message: String, _ fields: [String: String] = [:]) { write("error", message, fields) }

    private func write(_ level: String, _ message: String, _ fields: [String: String]) {
        var line = "{\"time\":\(csys_wall_ms()),\"level\":\"\(level)\",\"msg\":"
        ProblemResponse.appendJSONString(message, to: &line)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += ","
            ProblemResponse.appendJSONString(key, to: &line)
            line += ":"
            ProblemResponse.appendJSONString(value, to: &line)
        }
        line += "}\n"
        sink.write(Array(line.utf8))
    }
}
