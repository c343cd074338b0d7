import Foundation

/// Store keeps every time as an `Int64` count of milliseconds since the Unix epoch (UTC).
///
/// Integers sort and compare in SQL without parsing, are exact, and cost 8 bytes or less
/// per row; converting to ISO 8601 is the API layer's job.
public enum Timestamp {
    /// The current time in milliseconds since the Unix epoch.
    public static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
