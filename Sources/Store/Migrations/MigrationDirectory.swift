import Foundation

/// Finds the `Migrations` directory at run time.
public enum MigrationDirectory {
    /// The directory name looked for.
    public static let name = "Migrations"

    /// Returns the migrations directory:
    /// 1. `explicitPath` when given (it must exist: a configured path is never second-guessed);
    /// 2. else `./Migrations` in `workingDirectory`;
    /// 3. else `Migrations` in the executable's directory or any of its ancestors
    ///    (so `.build/release/inksticker` finds the repository's `Migrations/`).
    ///
    /// - Throws: `MigrationError.directoryNotFound` listing every place searched.
    public static func locate(explicitPath: String? = nil,
                              workingDirectory: String = FileManager.default.currentDirectoryPath,
                              executablePath: String? = Bundle.main.executablePath) throws -> String {
        if let explicitPath {
            guard isDirectory(explicitPath) else {
                throw MigrationError.directoryNotFound(searched: [explicitPath])
            }
            return explicitPath
        }
        var searched: [String] = []
        let local = (workingDirectory as NSString).appendingPathComponent(name)
        searched.append(local)
        if isDirectory(local) { return local }

        if let executablePath {
            var directory = ((executablePath as NSString).resolvingSymlinksInPath as NSString)
                .deletingLastPathComponent
            while !directory.isEmpty {
                let candidate = (directory as NSString).appendingPathComponent(name)
                searched.append(candidate)
                if isDirectory(candidate) { return candidate }
                let parent = (directory as NSString).deletingLastPathComponent
                if parent == directory { break }
                directory = parent
            }
        }
        throw MigrationError.directoryNotFound(searched: searched)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
