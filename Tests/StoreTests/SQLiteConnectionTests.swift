import Testing
@testable import Store

@Suite struct SQLiteConnectionTests {
    private func connection(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: directory.file("plain.sqlite"))
        try connection.execute("""
            CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT);
            """)
        return connection
    }

    @Test func bindsAndReadsEveryType() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        let text = "naïve ✍️ \u{0}after-nul"
        let blob: [UInt8] = [0, 1, 2, 255, 0]
        try connection.withStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?)") { statement in
            try statement.bind(Int64.min, at: 1)
            try statement.bind(-0.125, at: 2)
            try statement.bind(text, at: 3)
            try statement.bind(blob, at: 4)
            try statement.bindNull(at: 5)
            try statement.execute()
        }
        let row = try connection.withStatement("SELECT i, r, s, b, n, typeof(s), typeof(b) FROM t") { statement in
            try statement.first { row in
                (row.int64(at: 0), row.double(at: 1), row.string(at: 2), row.blob(at: 3), row.isNull(at: 4),
                 row.optionalString(at: 4), row.string(at: 5), row.string(at: 6), row.columnType(at: 0))
            }
        }
        let values = try #require(row)
        #expect(values.0 == Int64.min)
        #expect(values.1 == -0.125)
        #expect(values.2 == text)  // The embedded NUL survives: length-delimited binding.
        #expect(values.3 == blob)
        #expect(values.4)
        #expect(values.5 == nil)
        #expect(values.6 == "text")
        #expect(values.7 == "blob")
        #expect(values.8 == .integer)
    }

    @Test func emptyStringAndEmptyBlobAreNotNull() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        try connection.withStatement("INSERT INTO t (s, b) VALUES (?, ?)") { statement in
            try statement.bind("", [UInt8]())
            try statement.execute()
        }
        let types = try connection.withStatement("SELECT typeof(s), typeof(b), length(b) FROM t") {
            try $0.first { [$0.string(at: 0), $0.string(at: 1), String($0.int(at: 2))] }
        }
        #expect(types == ["text", "blob", "0"])
    }

    @Test func bindsByName() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        let result = try connection.withStatement("SELECT :a + :b, :name") { statement in
            try statement.bind(40, named: ":a")
            try statement.bind(2, named: ":b")
            try statement.bind(Optional<String>.none, named: ":name")
            return try statement.first { ($0.int(at: 0), $0.isNull(at: 1)) }
        }
        #expect(result?.0 == 42)
        #expect(result?.1 == true)
    }

    @Test func unknownParameterNameIsATypedError() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        let error = try #require(throws: SQLiteError.self) {
            try connection.withStatement("SELECT :a") { try $0.bind(1, named: ":missing") }
        }
        #expect(error.code == .range)
        #expect(error.sql == "SELECT :a")
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        try connection.execute("CREATE TABLE u (k TEXT PRIMARY KEY NOT NULL) STRICT")
        let sql = "INSERT INTO u (k) VALUES (?)"
        try connection.withStatement(sql) { try $0.bind("x"); try $0.execute() }
        let error = try #require(throws: SQLiteError.self) {
            try connection.withStatement(sql) { try $0.bind("x"); try $0.execute() }
        }
        #expect(error.code == .constraint)
        #expect(error.extendedCode == .constraintPrimaryKey)
        #expect(error.message.contains("u.k"))
        #expect(error.sql == sql)
        #expect(error.description.contains("SQLITE_CONSTRAINT_PRIMARYKEY (1555)"))
        #expect(error.description.contains(sql))

        let syntax = try #require(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(syntax.code == .error)
        #expect(syntax.message.contains("syntax error"))
        #expect(syntax.sql == "SELEC 1")
    }

    @Test func prepareRefusesMultipleStatements() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        let error = try #require(throws: SQLiteError.self) {
            try connection.prepare("SELECT 1; DELETE FROM t")
        }
        #expect(error.code == .misuse)
        // A trailing semicolon and whitespace are fine.
        #expect(throws: Never.self) { try connection.prepare("SELECT 1;  \n") }
    }

    @Test func cachesStatementsBySQLText() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("c.sqlite"), statementCacheCapacity: 2)
        let first = try connection.cachedStatement("SELECT 1")
        #expect(try connection.cachedStatement("SELECT 1") === first)
        #expect(try connection.cachedStatement("SELECT 2") !== first)
        #expect(connection.cachedStatementCount == 2)
        // Capacity 2: a third SQL text evicts the oldest.
        _ = try connection.cachedStatement("SELECT 3")
        #expect(connection.cachedStatementCount == 2)
        #expect(try connection.cachedStatement("SELECT 1") !== first)
    }

    @Test func reentrantUseOfACachedStatementGetsAFreshOne() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        try connection.execute("INSERT INTO t (i) VALUES (1), (2), (3)")
        let sql = "SELECT i FROM t ORDER BY i"
        var pairs: [[Int]] = []
        try connection.withStatement(sql) { outer in
            try outer.forEachRow { row in
                let first = row.int(at: 0)
                let inner = try connection.withStatement(sql) { try $0.map { $0.int(at: 0) } }
                pairs.append([first] + inner)
            }
        }
        #expect(pairs == [[1, 1, 2, 3], [2, 1, 2, 3], [3, 1, 2, 3]])
    }

    @Test func closedConnectionRefusesWork() throws {
        let directory = try TemporaryDirectory()
        let connection = try connection(directory)
        try connection.close()
        #expect(connection.isClosed)
        let error = try #require(throws: SQLiteError.self) { try connection.execute("SELECT 1") }
        #expect(error.code == .misuse)
        try connection.close()  // Idempotent.
    }

    @Test func openFailureNamesThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/dir/x.sqlite")
        let error = try #require(throws: SQLiteError.self) {
            try SQLiteConnection(path: path, flags: [.readWrite, .create])
        }
        #expect(error.code == .cantOpen)
        #expect(error.message.contains(path))
    }
}
