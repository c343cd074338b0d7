import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File-system checks run before a database file is opened.
enum FileSafety {
    /// Creates `directory` (mode 0700, intermediate directories included) when it does not exist.
    static func ensureDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.directoryUnavailable(path: directory, reason: "exists and is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.directoryUnavailable(path: directory, reason: "\(error)")
        }
    }

    /// Throws `StoreError.unsafePermissions` when any existing path in `paths` is writable by
    /// every user: anyone on the machine could then replace or corrupt the board data.
    static func refuseWorldWritable(_ paths: [String]) throws {
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }  // Not created yet: SQLite creates it 0644.
            let mode = UInt32(info.st_mode)
            if mode & UInt32(S_IWOTH) != 0 {
                throw StoreError.unsafePermissions(path: path, mode: mode)
            }
        }
    }

    /// The directory part of `path` (`.` for a bare file name).
    static func parentDirectory(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }
}
