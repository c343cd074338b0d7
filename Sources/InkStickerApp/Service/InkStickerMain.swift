import Foundation
import HTTPServer
import Store

/// The command-line entry point, kept out of the executable so it can be tested.
public enum InkStickerMain {
    public static let version = "0.1.0"

    /// Runs the command line and returns the process exit code.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard let command = arguments.first else {
            print(AppOptions.helpText)
            return 0
        }
        switch command {
        case "--help", "-h", "help":
            print(AppOptions.helpText)
            return 0
        case "--version":
            print("inksticker \(version)")
            return 0
        case "serve":
            if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                print(AppOptions.helpText)
                return 0
            }
            return serve(arguments: Array(arguments.dropFirst()), environment: environment)
        case "copy-db":
            return copyDatabase(arguments: Array(arguments.dropFirst()))
        default:
            FileHandle.standardError.write(Data("inksticker: unknown command '\(command)'; see 'inksticker --help'\n".utf8))
            return 2
        }
    }

    static let copyUsage = """
        usage: inksticker copy-db --from DB --to DB [--migrations DIR]
          Copies every board, sticker, ink, event and idempotency record of one database into
          another, empty one (created and migrated when needed), keeping ids, cursors and event ids:
          a SQLite file into PostgreSQL to scale out, or back. DB is a SQLite path or a PostgreSQL
          URL / connection string, as for 'serve --db'. Stop the nodes writing to --from first.
        """

    /// `copy-db`: moves a deployment's data between stores (see `Database.copyEverything`).
    static func copyDatabase(arguments: [String]) -> Int32 {
        var options: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            if name == "--help" || name == "-h" {
                print(copyUsage)
                return 0
            }
            guard ["--from", "--to", "--migrations"].contains(name), index + 1 < arguments.count else {
                FileHandle.standardError.write(Data("inksticker: copy-db: unexpected '\(name)'\n\(copyUsage)\n".utf8))
                return 2
            }
            options[name] = arguments[index + 1]
            index += 2
        }
        guard let from = options["--from"], let to = options["--to"] else {
            FileHandle.standardError.write(Data("\(copyUsage)\n".utf8))
            return 2
        }
        do {
            let migrations = try MigrationDirectory.locate(explicitPath: options["--migrations"])
            if DatabaseLocation.engine(of: from) == .sqlite, !FileManager.default.fileExists(atPath: from) {
                throw StartupError("no SQLite database at \(from)")
            }
            let source = try Database(location: from, migrationsDirectory: migrations)
            defer { try? source.close() }
            let target = try Database(location: to, migrationsDirectory: migrations)
            defer { try? target.close() }
            for (table, rows) in try source.copyEverything(to: target) {
                print("\(table): \(rows) rows")
            }
            print("copied \(DatabaseLocation.redacted(from)) into \(DatabaseLocation.redacted(to))")
            return 0
        } catch {
            FileHandle.standardError.write(Data("inksticker: copy-db: \(error)\n".utf8))
            return 1
        }
    }

    static func serve(arguments: [String], environment: [String: String]) -> Int32 {
        let configuration: AppConfiguration
        do {
            configuration = try AppOptions.parse(arguments: arguments, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("inksticker: \(error)\n".utf8))
            return 2
        }
        TerminationSignals.block()
        let service: Service
        do {
            service = try Service.start(configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("inksticker: \(error)\n".utf8))
            return 1
        }
        _ = TerminationSignals.wait()
        service.stop()
        return 0
    }
}
