import Glibc
import HTTPServer
import Store

/// The long-lived parts every route may use, injected once at start-up.
struct AppServices: Sendable {
    struct Check: Sendable {
        var name: String
        var ok: Bool
        var detail: String
    }

    let configuration: AppConfiguration
    let database: Database
    let log: AppLog
    let httpMetrics: HTTPMetrics
    let files: StaticFiles

    /// Whether each dependency can serve requests now.
    func readiness() -> [Check] {
        var checks: [Check] = []
        do {
            let count = try database.read { try $0.appliedMigrations().count }
            checks.append(Check(name: "database", ok: count > 0, detail: "no migrations applied"))
        } catch {
            checks.append(Check(name: "database", ok: false, detail: "unavailable"))
        }
        return checks
    }

    func prometheusText() -> String {
        httpMetrics.prometheusText()
    }
}

/// Files served from the project directory, read once at start-up.
struct StaticFiles: Sendable {
    let openAPI: [UInt8]?

    /// Reads the files that sit next to the migrations directory (the project root).
    static func load(projectRoot: String) -> StaticFiles {
        StaticFiles(openAPI: FileBytes.read(projectRoot + "/openapi.yaml"))
    }
}

enum FileBytes {
    static func read(_ path: String) -> [UInt8]? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, handle)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
