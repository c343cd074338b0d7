import Foundation
import Store
import TestDatabases
import Testing

/// The built `inksticker` executable as an operator runs it: options, start-up errors, signals.
@Suite(.serialized) struct ExecutableTests {
    static var executable: String { TestPaths.root + "/.build/debug/inksticker" }

    struct Running {
        let process: Process
        let output: Pipe
        var port: Int
    }

    /// Starts `inksticker` with arguments and waits for its "listening" line.
    static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "OMP_THREAD_LIMIT")
        env.merge(environment) { $1 }
        let (process, output) = try start(arguments, environment: env)
        var seen = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
            let text = String(decoding: seen, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.contains("\"msg\":\"listening\"") }),
               let range = line.range(of: #""port":"(\d+)""#, options: .regularExpression) {
                let port = Int(line[range].filter(\.isNumber)) ?? 0
                return Running(process: process, output: output, port: port)
            }
        }
        process.terminate()
        throw HarnessError("inksticker did not start: \(String(decoding: seen, as: UTF8.self))")
    }

    /// Runs `inksticker` to completion and returns its exit code and output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let (process, output) = try start(arguments, environment: nil)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `inksticker` started from the repository root, stdout and stderr into one pipe.
    private static func start(_ arguments: [String], environment: [String: String]?) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = URL(fileURLWithPath: TestPaths.root)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    /// The directory of these tests' directories (databases, migration copies), removed when
    /// the test process exits.
    static let temporaryRoot: String = {
        atexit { try? FileManager.default.removeItem(atPath: ExecutableTests.temporaryRoot) }
        return NSTemporaryDirectory() + "inksticker-exe-" + UUID().uuidString
    }()

    static func temporaryDirectory() throws -> String {
        let path = temporaryRoot + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    @Test func helpDocumentsEveryOptionWithItsEnvironmentVariable() throws {
        let (status, output) = try Self.run(["--help"])
        #expect(status == 0)
        for option in ["--host", "--port", "--db", "--synchronous", "--ocr-workers", "--max-connections", "--cors-origin"] {
            #expect(output.contains(option))
        }
        #expect(output.contains("INKSTICKER_PORT"))
        #expect(output.contains("INKSTICKER_DB"))
    }

    @Test func badOptionsExitWithUsageError() throws {
        #expect(try Self.run(["serve", "--port", "http"]).status == 2)
        #expect(try Self.run(["serve", "--no-such-option"]).status == 2)
        #expect(try Self.run(["frobnicate"]).status == 2)
    }

    @Test func missingLanguageDataIsAClearStartupError() throws {
        let dir = try Self.temporaryDirectory()
        let (status, output) = try Self.run(["serve", "--port", "0", "--db", dir + "/db.sqlite", "--tessdata", dir,
                                             "--models", dir, "--lang", "eng"])
        #expect(status == 1)
        #expect(output.contains("tesseract-ocr-eng"), "\(output)")
    }

    @Test func missingPenInkModelIsAClearStartupError() throws {
        let dir = try Self.temporaryDirectory()
        let (status, output) = try Self.run(["serve", "--port", "0", "--db", dir + "/db.sqlite", "--models", dir])
        #expect(status == 1)
        #expect(output.contains("ink-tall.traineddata is not in \(dir)") && output.contains("--lang eng"), "\(output)")
    }

    @Test func changedMigrationIsRefusedAtStartup() throws {
        let dir = try Self.temporaryDirectory()
        let migrations = dir + "/Migrations"
        try FileManager.default.copyItem(atPath: TestPaths.migrations, toPath: migrations)
        let running = try Self.launch(["serve", "--port", "0", "--db", dir + "/db.sqlite", "--migrations", migrations,
                                       "--models", TestPaths.models])
        running.process.terminate()
        running.process.waitUntilExit()
        let first = try FileManager.default.contentsOfDirectory(atPath: migrations).sorted()[0]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: migrations + "/" + first))
        handle.seekToEndOfFile()
        handle.write(Data("\n-- edited after it was applied\n".utf8))
        try handle.close()
        let (status, output) = try Self.run(["serve", "--port", "0", "--db", dir + "/db.sqlite", "--migrations", migrations,
                                             "--models", TestPaths.models])
        #expect(status == 1)
        #expect(output.contains("changed after it was applied"), "\(output)")
    }

    @Test func sigtermStopsGracefullyAndOpenMPIsLimitedToOneThread() throws {
        let dir = try Self.temporaryDirectory()
        let running = try Self.launch(["serve", "--port", "0", "--db", dir + "/db.sqlite"])
        let health = try TestClient(port: running.port).request("GET", "/healthz")
        #expect(health.status == 200)
        let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(running.process.processIdentifier)/environ"))
        #expect(environ.split(separator: 0).contains(Data("OMP_THREAD_LIMIT=1".utf8)),
                "the process re-executes itself with OMP_THREAD_LIMIT=1")
        running.process.terminate()  // SIGTERM
        running.process.waitUntilExit()
        #expect(running.process.terminationStatus == 0)
        let rest = String(decoding: running.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("\"msg\":\"stopped\""))
        #expect(!rest.contains("LEAK"))
    }

    @Test func worldWritableDatabaseDirectoryIsRefused() throws {
        let dir = try Self.temporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir)
        let (status, output) = try Self.run(["serve", "--port", "0", "--db", dir + "/db.sqlite"])
        #expect(status == 1)
        #expect(output.contains("writable"), "\(output)")
    }

    /// `copy-db` moves a SQLite file's boards into another database (PostgreSQL when the suite runs
    /// there) and refuses to copy into one that already has boards.
    @Test func copyDatabaseMovesBoardsAndRefusesAFullTarget() throws {
        let dir = try Self.temporaryDirectory()
        let source = try Database(path: dir + "/source.sqlite", migrationsDirectory: TestPaths.migrations)
        try source.write { tx in
            try tx.insertBoard(BoardRecord(id: "b_copy", title: "copied", tokenHash: Array(repeating: 7, count: 32), createdAt: 1))
        }
        try source.close()
        let target = try TestDatabases.location(sqlitePath: dir + "/target.sqlite")
        let (status, output) = try Self.run(["copy-db", "--from", dir + "/source.sqlite", "--to", target])
        #expect(status == 0, "\(output)")
        #expect(output.contains("boards: 1 rows"), "\(output)")
        let copied = try Database(location: target, migrationsDirectory: TestPaths.migrations)
        #expect(try copied.read { try $0.board(id: "b_copy")?.title } == "copied")
        try copied.close()
        let (again, refusal) = try Self.run(["copy-db", "--from", dir + "/source.sqlite", "--to", target])
        #expect(again == 1)
        #expect(refusal.contains("has boards"), "\(refusal)")
        let (usage, text) = try Self.run(["copy-db", "--from", dir + "/source.sqlite"])
        #expect(usage == 2)
        #expect(text.contains("usage: inksticker copy-db"))
    }
}
