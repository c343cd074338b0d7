/// Why the schema could not be brought up to date. Start-up must stop on any of these.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No migrations directory was found; `searched` lists every place looked at.
    case directoryNotFound(searched: [String])
    /// The directory or a file in it could not be read.
    case unreadable(path: String, reason: String)
    /// A `.sql` file whose name is not `NNNN_name.sql` (four or more digits, version ≥ 1,
    /// name of lowercase letters, digits and underscores).
    case invalidFileName(String)
    /// Two files share a version number.
    case duplicateVersion(Int, files: [String])
    /// A migration already applied to this database no longer has the bytes it had then.
    case checksumMismatch(version: Int, name: String, recorded: String, current: String)
    /// A migration already applied under a different name (the file was renamed).
    case nameMismatch(version: Int, recorded: String, current: String)
    /// The database has migrations this build does not know: it was migrated by a newer build.
    case databaseIsNewer(unknownVersions: [Int], latestKnown: Int)
    /// A pending migration is older than one already applied (files merged out of order).
    case outOfOrder(version: Int, latestApplied: Int)
    /// Running a migration's SQL failed; it was rolled back.
    case failed(version: Int, name: String, reason: String)

    /// A one-line explanation for logs and start-up failures.
    public var description: String {
        switch self {
        case let .directoryNotFound(searched):
            "no Migrations directory found (looked in: \(searched.joined(separator: ", ")))"
        case let .unreadable(path, reason):
            "cannot read migrations at \(path): \(reason)"
        case let .invalidFileName(name):
            "migration file \(name) is not named NNNN_name.sql"
        case let .duplicateVersion(version, files):
            "migration version \(version) appears more than once: \(files.joined(separator: ", "))"
        case let .checksumMismatch(version, name, recorded, current):
            "migration \(version) (\(name)) changed after it was applied: recorded SHA-256 \(recorded), file now \(current)"
        case let .nameMismatch(version, recorded, current):
            "migration \(version) was applied as \(recorded) but the file is now named \(current)"
        case let .databaseIsNewer(unknown, latestKnown):
            "the database has migrations \(unknown.map(String.init).joined(separator: ", ")) unknown to this build "
                + "(latest known: \(latestKnown)); it was created by a newer version"
        case let .outOfOrder(version, latestApplied):
            "migration \(version) is pending but \(latestApplied) is already applied; migrations must be added in order"
        case let .failed(version, name, reason):
            "migration \(version) (\(name)) failed: \(reason)"
        }
    }
}
