/// A write transaction (`BEGIN IMMEDIATE`), valid only inside `Database.write`'s body.
///
/// Mutations live in `WriteTransaction+<Concern>.swift`; every read method is inherited.
public final class WriteTransaction: ReadTransaction {
    /// Rows changed by the last INSERT/UPDATE/DELETE (cascades not counted).
    var changes: Int { connection.changes }
}
