import Foundation
import HTTPServer
import TestDatabases
@testable import InkStickerApp

/// Paths of the repository and its ink fixtures, found from this file.
enum TestPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let migrations = root + "/Migrations"
    static let models = root + "/Models"
    static let fixtures = root + "/Tests/Fixtures/ink"

    /// One sample of a fixture file by id.
    static func sample(_ file: String, id: String) throws -> (text: String, strokes: Any) {
        let text = try String(contentsOfFile: fixtures + "/" + file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.contains("\"\(id)\"") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            if object["id"] as? String == id { return (object["text"] as! String, object["strokes"]!) }
        }
        throw HarnessError("no sample \(id) in \(file)")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A real service (real SQLite file, real Tesseract, real sockets) on a free port.
final class ServiceHarness {
    let directory: String
    let databasePath: String
    let log = MemoryLogSink()
    private(set) var service: Service?
    var port: Int { service?.port ?? 0 }

    init(configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        directory = NSTemporaryDirectory() + "inksticker-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        databasePath = try TestDatabases.location(sqlitePath: directory + "/test.sqlite")
        try start(configure: configure)
    }

    func start(configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        var configuration = AppConfiguration()
        configuration.server.port = 0
        configuration.databasePath = databasePath
        configuration.migrationsDirectory = TestPaths.migrations
        configuration.ocrWorkers = 1
        configuration.shutdownGrace = .seconds(2)
        configure(&configuration)
        service = try Service.start(configuration: configuration, logSink: log)
    }

    /// Stops the service (as on SIGTERM); `start()` brings it back on the same database.
    func stop() {
        service?.stop()
        service = nil
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var client: TestClient { TestClient(port: port) }
}
