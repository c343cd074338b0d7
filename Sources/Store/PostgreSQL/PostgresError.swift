/// A failure reported by PostgreSQL or libpq: the SQLSTATE (nil when no server answered),
/// the server's message, the constraint involved and the SQL being run.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505`), or nil for a failure before any server answer.
    public let sqlState: String?
    /// The primary message.
    public let message: String
    /// The constraint named by the server for an integrity violation.
    public let constraint: String?
    /// The SQL that failed, when the failure belongs to a statement.
    public let sql: String?
    /// True when the connection is unusable after this error (server down, restarted, network).
    public let connectionLost: Bool

    public init(sqlState: String?, message: String, constraint: String? = nil, sql: String? = nil,
                connectionLost: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.sql = sql
        self.connectionLost = connectionLost
    }

    /// The server cannot serve now but may soon: connection failures (class 08), shutdown and
    /// start-up (57P01–57P03), too many connections (53300).
    public var isUnavailable: Bool {
        if connectionLost { return true }
        guard let sqlState else { return true }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(sqlState)
    }

    /// A transaction that lost a serialization or deadlock race: running it again may succeed.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// `statement_timeout` expired (57014, query_canceled).
    public var isTimeout: Bool { sqlState == "57014" }

    public var description: String {
        var text = "PostgreSQL error \(sqlState ?? "(no server answer)"): \(message)"
        if let sql { text += " [\(sql.split(separator: "\n").joined(separator: " ").prefix(200))]" }
        return text
    }
}
