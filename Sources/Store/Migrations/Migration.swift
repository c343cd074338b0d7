import Foundation

/// One numbered schema change, read from `Migrations/NNNN_name.sql`.
public struct Migration: Sendable, Hashable {
    /// The number at the start of the file name (`1` for `0001_boards.sql`).
    public let version: Int
    /// The part after the number (`boards`).
    public let name: String
    /// The SQL script, run in one transaction. It must not contain `BEGIN`/`COMMIT` or
    /// `PRAGMA`s that cannot run inside a transaction (`foreign_keys`, `journal_mode`).
    public let sql: String
    /// Lowercase hex SHA-256 of the file's bytes, recorded when applied.
    public let checksum: String

    /// Creates a migration from its parts; the checksum is computed from `sql`'s UTF-8 bytes.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = SHA256.hexDigest(sql.utf8)
    }

    /// The conventional file name, `0001_boards.sql`.
    public var fileName: String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + name + ".sql"
    }

    /// Loads every `*.sql` file in `directory`, sorted by version.
    ///
    /// Other files (a README) are ignored; a `.sql` file with a malformed name is an error
    /// rather than silently skipped, since a skipped migration would leave the schema wrong.
    public static func load(from directory: String) throws -> [Migration] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MigrationError.unreadable(path: directory, reason: "\(error)")
        }
        var migrations: [Migration] = []
        var filesByVersion: [Int: [String]] = [:]
        for entry in entries.sorted() where entry.hasSuffix(".sql") {
            guard let (version, name) = parse(fileName: entry) else {
                throw MigrationError.invalidFileName(entry)
            }
            let path = (directory as NSString).appendingPathComponent(entry)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MigrationError.unreadable(path: path, reason: "cannot read file")
            }
            guard let sql = String(data: data, encoding: .utf8) else {
                throw MigrationError.unreadable(path: path, reason: "not UTF-8")
            }
            filesByVersion[version, default: []].append(entry)
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        if let (version, files) = filesByVersion.first(where: { $0.value.count > 1 }) {
            throw MigrationError.duplicateVersion(version, files: files)
        }
        return migrations.sorted { $0.version < $1.version }
    }

    /// Splits `0001_boards.sql` into `(1, "boards")`, or nil when the name is malformed.
    static func parse(fileName: String) -> (Int, String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<underscore]
        let name = stem[stem.index(after: underscore)...]
        guard digits.count >= 4, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let version = Int(digits), version >= 1,
              !name.isEmpty,
              name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { return nil }
        return (version, String(name))
    }
}
