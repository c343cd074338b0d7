/// Every tunable of the Store layer, with defaults suited to a small self-hosted service.
public struct DatabaseConfiguration: Sendable, Hashable {
    /// SQLite's `PRAGMA synchronous` on the writer.
    public enum Synchronous: String, Sendable, Hashable {
        /// In WAL mode: durable against application crashes; a power loss may drop the last
        /// transactions but never corrupts the database. The default.
        case normal = "NORMAL"
        /// fsync on every commit: durable against power loss, at a throughput cost.
        case full = "FULL"
    }

    /// `PRAGMA synchronous` for the writer connection.
    public var synchronous: Synchronous = .normal
    /// How long a statement waits for a lock held by another connection (or process), in ms.
    public var busyTimeoutMilliseconds: Int = 5_000
    /// Reader connections used in parallel by `read(_:)`; at least 1.
    public var readerCount: Int = 2
    /// How long `read(_:)` waits for a free reader before failing, in ms.
    public var readerWaitMilliseconds: Int = 10_000
    /// Prepared statements cached per connection.
    public var statementCacheCapacity: Int = 64
    /// WAL pages after which the writer checkpoints automatically (`PRAGMA wal_autocheckpoint`).
    public var walAutoCheckpointPages: Int = 1_000
    /// Largest WAL file kept after a checkpoint, in bytes (`PRAGMA journal_size_limit`).
    public var journalSizeLimitBytes: Int = 64 * 1024 * 1024
    /// The largest `limit` accepted by list queries (stickers, events).
    public var maxPageSize: Int = 1_000
    /// Create the database file's parent directory (mode 0700) when missing.
    public var createsParentDirectory: Bool = true
    /// Refuse a database file, directory or journal writable by every user.
    public var refusesWorldWritable: Bool = true

    /// PostgreSQL: connections each node keeps at most (reads and writes share them).
    public var poolSize: Int = 8
    /// PostgreSQL: how long connecting may take before the database counts as unavailable, in s.
    public var connectTimeoutSeconds: Int = 5
    /// PostgreSQL: the longest a statement may run (`statement_timeout`), in ms.
    public var statementTimeoutMilliseconds: Int = 10_000
    /// PostgreSQL: how often a write transaction that lost a deadlock or serialization race runs.
    public var writeAttempts: Int = 4

    /// The defaults.
    public init() {}
}
