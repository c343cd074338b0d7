import Foundation
import HTTPServer

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
        default:
            FileHandle.standardError.write(Data("inksticker: unknown command '\(command)'; see 'inksticker --help'\n".utf8))
            return 2
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
