import Locking
import Foundation

/// The application's database: SQLite (a file, the embedded default) or PostgreSQL (shared by
/// several nodes), behind one interface. The app sees `read` and `write` transactions with the
/// same typed queries and the same guarantees on both engines.
///
/// All methods block the calling thread; call them from worker threads, never from an event loop.
public final class Database: Sendable {
    private enum Lifecycle { case open, closing, closed }

    /// The engine behind this database.
    public let engine: StoreEngine
    /// The SQLite file path, or the PostgreSQL connection string with any password removed.
    public let location: String
    /// The configuration the database was opened with.
    public let configuration: DatabaseConfiguration
    /// Versions of the migrations applied while opening (empty when the schema was current).
    public var migrationsAppliedAtOpen: [Int] { backend.migrationsAppliedAtOpen }

    private let backend: any DatabaseBackend
    private let lifecycle = Lock(Lifecycle.open)
    private let writeObserver = Lock<WriteObserver?>(nil)

    /// Opens (creating if needed) the SQLite database at `path` and applies pending `migrations`.
    ///
    /// - Throws: `StoreError` (permissions, directory), `MigrationError` (checksum mismatch,
    ///   newer database, failed migration) or `SQLiteError`.
    public init(path: String, migrations: [Migration], configuration: DatabaseConfiguration = .init()) throws {
        self.engine = .sqlite
        self.location = path
        self.configuration = configuration
        self.backend = try SQLiteBackend(path: path, migrations: migrations, configuration: configuration)
    }

    /// Connects to PostgreSQL (`connection`: a `postgres://` URL or a `host=… dbname=…` string)
    /// and applies pending `migrations` under an advisory lock, so nodes starting together apply
    /// each migration once.
    ///
    /// - Throws: `StoreError.unavailable` when the server cannot be reached, `MigrationError`.
    public init(postgres connection: String, migrations: [Migration],
                configuration: DatabaseConfiguration = .init()) throws {
        self.engine = .postgresql
        self.location = DatabaseLocation.redacted(connection)
        self.configuration = configuration
        self.backend = try PostgresBackend(connection: connection, migrations: migrations, configuration: configuration)
    }

    /// Opens `location` with the engine it names (see `DatabaseLocation`): migrations come from
    /// `migrationsDirectory` for SQLite and from its `postgresql/` subdirectory for PostgreSQL.
    public convenience init(location: String, migrationsDirectory: String,
                            configuration: DatabaseConfiguration = .init()) throws {
        switch DatabaseLocation.engine(of: location) {
        case .sqlite:
            try self.init(path: location, migrations: Migration.load(from: migrationsDirectory),
                          configuration: configuration)
        case .postgresql:
            try self.init(postgres: location,
                          migrations: Migration.load(from: migrationsDirectory + "/" + StoreEngine.postgresql.rawValue),
                          configuration: configuration)
        }
    }

    /// Opens the SQLite database with the migrations found in `migrationsDirectory`.
    public convenience init(path: String, migrationsDirectory: String,
                            configuration: DatabaseConfiguration = .init()) throws {
        try self.init(path: path, migrations: Migration.load(from: migrationsDirectory), configuration: configuration)
    }

    /// True from a successful open until `close()` starts.
    public var isReady: Bool { lifecycle.withLock { $0 == .open } }

    /// Runs `body` in a write transaction. Any error thrown by `body` or by the commit rolls the
    /// transaction back and is rethrown.
    ///
    /// SQLite serializes every write (`BEGIN IMMEDIATE` on one connection). PostgreSQL runs
    /// writes of different boards in parallel: the first statement of a transaction about a
    /// board takes that board's advisory lock until commit, and a transaction that loses a
    /// deadlock or serialization race runs again (`configuration.writeAttempts`). A body is
    /// only SQL, so running it again is safe.
    ///
    /// - Throws: `StoreError.closed`, `StoreError.nestedWrite` (SQLite) when called inside a
    ///   write body, `StoreError.unavailable` when PostgreSQL cannot be reached.
    @discardableResult
    public func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        guard isReady else { throw StoreError.closed }
        guard let observer = writeObserver.withLock({ $0 }) else { return try backend.write(body) }
        // Each board once, however many times a retried transaction takes it in scope.
        let touched = TouchedBoards()
        defer { if !touched.boards.isEmpty { observer.ended(touched.boards) } }
        return try backend.write { transaction in
            transaction.onScope = { board in
                if touched.boards.insert(board).inserted { observer.began(board) }
            }
            return try body(transaction)
        }
    }

    /// Calls `began`, on the writing thread, with each board a write transaction of this node
    /// touches, before its first statement about the board; and `ended` with all of them once the
    /// transaction has ended (committed, rolled back, or failed at commit, when it may still have
    /// committed): from `began` to `ended`, what was read about those boards may be stale.
    public func observeWrites(began: @escaping @Sendable (String) -> Void, ended: @escaping @Sendable (Set<String>) -> Void) {
        writeObserver.withLock { $0 = WriteObserver(began: began, ended: ended) }
    }

    /// The boards one `write` call has touched; used on its own thread only.
    private final class TouchedBoards: @unchecked Sendable {
        var boards: Set<String> = []
    }

    private struct WriteObserver: Sendable {
        let began: @Sendable (String) -> Void
        let ended: @Sendable (Set<String>) -> Void
    }

    /// Runs `body` in a read transaction: every query in `body` sees the same snapshot,
    /// unaffected by concurrent writes.
    ///
    /// - Throws: `StoreError.closed`, `StoreError.readerUnavailable` when every connection
    ///   stays busy for `readerWaitMilliseconds`, `StoreError.unavailable`.
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        guard isReady else { throw StoreError.closed }
        return try backend.read(body)
    }

    /// Calls `handler` whenever another node (or this one) commits an event of a board, when
    /// notifications may have been missed, and when they stop or start reaching this node (see
    /// `EventSignal`). SQLite has one node, so it never calls.
    public func observeEvents(_ handler: @escaping @Sendable (EventSignal) -> Void) {
        backend.observeEvents(handler)
    }

    /// Graceful shutdown: refuses new transactions, waits for running ones and closes every
    /// connection (SQLite also checkpoints the WAL into the main file). Idempotent.
    ///
    /// - Throws: the first error met; every connection is closed regardless.
    public func close() throws {
        let shouldClose = lifecycle.withLock { state -> Bool in
            guard state == .open else { return false }
            state = .closing
            return true
        }
        guard shouldClose else { return }
        let errors = backend.close()
        lifecycle.withLock { $0 = .closed }
        if let first = errors.first { throw first }
    }

    /// The migrations recorded in the database, by version.
    public func appliedMigrations() throws -> [AppliedMigration] {
        try read { try $0.appliedMigrations() }
    }
}

/// What `Database` needs from an engine.
protocol DatabaseBackend: Sendable {
    var migrationsAppliedAtOpen: [Int] { get }
    func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T
    func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T
    func observeEvents(_ handler: @escaping @Sendable (EventSignal) -> Void)
    func close() -> [any Error]
}

extension DatabaseBackend {
    func observeEvents(_ handler: @escaping @Sendable (EventSignal) -> Void) {}
}

/// What `Database.observeEvents` reports.
public enum EventSignal: Sendable, Equatable {
    /// A node committed an event of this board.
    case board(String)
    /// The periodic wake-up (every few seconds): look at every board again, in case a wake-up
    /// went astray on this node. Notifications themselves are not lost while the listener is
    /// connected (PostgreSQL queues them for it), so what is kept of a board stays valid.
    case sweep
    /// Whether notifications reach this node now: false from the start until PostgreSQL's
    /// listener is connected, and while it is away; changes made meanwhile are not announced.
    case listening(Bool)
}

/// How a `--db` value names its engine.
public enum DatabaseLocation {
    /// PostgreSQL for `postgres://` and `postgresql://` URLs and `key=value` connection strings
    /// (an `=` in a value with no `/` before it); SQLite (a file path) otherwise.
    public static func engine(of location: String) -> StoreEngine {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") { return .postgresql }
        if let equals = location.firstIndex(of: "="), !location[..<equals].contains("/") { return .postgresql }
        return .sqlite
    }

    /// The location with every password replaced by `***`, for logs and errors: a URL's
    /// `user:secret@` and its `password` and `sslpassword` parameters; in a `key=value` string
    /// those two settings, quoted or not, with or without spaces around the `=`. A connection
    /// string that does not parse is not shown at all. A file path is returned as it is.
    public static func redacted(_ location: String) -> String {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") { return redactedURL(location) }
        guard engine(of: location) == .postgresql else { return location }
        return redactedSettings(location) ?? "(a PostgreSQL connection string that does not parse)"
    }

    static let secretSettings: Set<String> = ["password", "sslpassword"]

    private static func redactedURL(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            // libpq ends the user and password at the last `@` before the first `/`: a `?` may be in the password.
            let authorityEnd = text[scheme.upperBound...].firstIndex(of: "/") ?? text.endIndex
            if let at = text[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = text[scheme.upperBound..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        guard let question = text.firstIndex(of: "?") else { return text }
        let parameters = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let key = pair.prefix { $0 != "=" }
            let name = String(key).removingPercentEncoding ?? String(key)
            return secretSettings.contains(name) && key.count < pair.count ? key + "=***" : String(pair)
        }
        return String(text[...question]) + parameters.joined(separator: "&")
    }

    /// libpq's `key = value` syntax: values bare up to white space, or in single quotes, with
    /// backslash escapes in both. Nil when the string does not follow it.
    private static func redactedSettings(_ text: String) -> String? {
        let characters = Array(text)
        var out = ""
        var i = 0
        func spaces() {
            while i < characters.count, characters[i].isWhitespace { out.append(characters[i]); i += 1 }
        }
        while i < characters.count {
            spaces()
            guard i < characters.count else { break }
            var key = ""
            while i < characters.count, !characters[i].isWhitespace, characters[i] != "=" { key.append(characters[i]); i += 1 }
            out += key
            spaces()
            guard i < characters.count, characters[i] == "=" else { return nil }
            out.append("=")
            i += 1
            spaces()
            var value = ""
            let quoted = i < characters.count && characters[i] == "'"
            if quoted { value.append("'"); i += 1 }
            var closed = !quoted
            while i < characters.count {
                if characters[i] == "\\", i + 1 < characters.count {
                    value.append(characters[i]); value.append(characters[i + 1]); i += 2
                    continue
                }
                if !quoted, characters[i].isWhitespace { break }
                value.append(characters[i]); i += 1
                if quoted, characters[i - 1] == "'" { closed = true; break }
            }
            guard closed else { return nil }
            if secretSettings.contains(key) {
                out += "***"
            } else if key == "dbname", value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
                out += redactedURL(value)
            } else {
                out += value
            }
        }
        return out
    }
}
