/// A read-only transaction on a consistent snapshot, valid only inside `Database.read`'s body.
///
/// Query methods live in `ReadTransaction+<Concern>.swift`. `WriteTransaction` inherits them,
/// so a write body reads its own uncommitted changes.
public class ReadTransaction {
    let connection: SQLiteConnection
    let configuration: DatabaseConfiguration
    private var isFinished = false

    init(connection: SQLiteConnection, configuration: DatabaseConfiguration) {
        self.connection = connection
        self.configuration = configuration
    }

    /// Marks the transaction unusable once its body returned.
    func finish() { isFinished = true }

    /// Runs `body` with the connection's cached prepared statement for `sql`.
    ///
    /// The escape hatch for queries the typed API does not cover. Bind every value; never
    /// build `sql` from values.
    ///
    /// - Throws: `StoreError.transactionFinished` when used after the body returned.
    public func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        guard !isFinished else { throw StoreError.transactionFinished }
        return try connection.withStatement(sql, body)
    }

    /// Validates a page size against the configured maximum.
    func checkLimit(_ limit: Int) throws {
        guard limit >= 1, limit <= configuration.maxPageSize else {
            throw StoreError.invalidLimit(limit, maximum: configuration.maxPageSize)
        }
    }

    /// The migrations recorded in `schema_migrations`, by version.
    public func appliedMigrations() throws -> [AppliedMigration] {
        guard !isFinished else { throw StoreError.transactionFinished }
        return try MigrationRunner.appliedMigrations(connection)
    }
}

@available(*, unavailable, message: "a transaction is confined to the thread running its body")
extension ReadTransaction: Sendable {}
