/// What the transactions and the migration runner need from a connection of either engine.
///
/// SQL is written once for both engines: parameters are `$1`, `$2`, … (SQLite reads them as
/// named parameters, numbered by first appearance, so each statement's parameters first appear
/// in ascending order), new keys come back with `RETURNING`, and only syntax both engines
/// share is used. What differs lives behind this protocol.
protocol StoreConnection: AnyObject {
    /// Which engine this is (migration bookkeeping and diagnostics).
    var engine: StoreEngine { get }

    /// Runs one statement and returns the rows it changed (INSERT, UPDATE, DELETE; 0 otherwise).
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int

    /// Runs one statement and decodes every row it returns.
    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T]

    /// Opens a transaction with `sql` (`BEGIN …`); PostgreSQL sends it with the first statement.
    func begin(_ sql: String) throws

    /// Commits (or rolls back) the transaction `begin` opened, if it is open.
    func end(commit: Bool) throws

    /// Runs a parameterless script of `;`-separated statements (migrations, BEGIN/COMMIT).
    func executeScript(_ sql: String) throws

    /// Whether an explicit transaction is open.
    var isInTransaction: Bool { get }

    /// Serialises write transactions on one board until the transaction ends: a no-op on SQLite
    /// (one writer at a time anyway), a transaction-scoped advisory lock on PostgreSQL, so that
    /// nodes sharing one database decide "the field under the pen" and allocate event ids of a
    /// board one transaction at a time.
    func lockBoard(_ id: String) throws

    /// Tells the other nodes, at commit, that the board has a new event: a no-op on SQLite (one
    /// node), `pg_notify` on PostgreSQL (delivered only if the transaction commits).
    func announceEvent(boardId: String) throws
}

/// The database engines behind `Database`.
public enum StoreEngine: String, Sendable, Hashable {
    case sqlite, postgresql
}

/// The kinds of constraint violation the Store turns into typed errors, whatever the engine.
public enum StoreConstraint: Sendable, Hashable {
    case primaryKey, unique, foreignKey, check, notNull
    /// Raised by a trigger of the schema (a label becoming a field, an event being changed).
    case trigger

    /// The kind of constraint `error` violated, when it is either engine's constraint error.
    public init?(_ error: any Error) {
        switch error {
        case let error as SQLiteError:
            switch error.extendedCode {
            case .constraintPrimaryKey: self = .primaryKey
            case .constraintUnique: self = .unique
            case .constraintForeignKey: self = .foreignKey
            case .constraintCheck: self = .check
            case .constraintNotNull: self = .notNull
            case .constraintTrigger: self = .trigger
            default: return nil
            }
        case let error as PostgresError:
            switch error.sqlState {
            case "23505": self = error.constraint?.hasSuffix("_pkey") == true ? .primaryKey : .unique
            case "23503": self = .foreignKey
            case "23514": self = .check
            case "23502": self = .notNull
            case "P0001": self = .trigger  // RAISE EXCEPTION in the schema's trigger functions
            default: return nil
            }
        default:
            return nil
        }
    }
}
