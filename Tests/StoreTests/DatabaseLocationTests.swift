import Testing
@testable import Store

/// What a `--db` value looks like in logs and errors: never its password.
@Suite struct DatabaseLocationTests {
    @Test(arguments: [
        ("postgres://app:s3cret@db.example/ink", "postgres://app:***@db.example/ink"),
        ("postgres://app:pa?ss@db/ink", "postgres://app:***@db/ink"),
        ("postgresql://app:p@ss@db.example/ink?sslmode=require&password=two&sslpassword=x",
         "postgresql://app:***@db.example/ink?sslmode=require&password=***&sslpassword=***"),
        ("host=db user=app password=hunter2 dbname=ink", "host=db user=app password=*** dbname=ink"),
        ("host=db password='two words' dbname=ink", "host=db password=*** dbname=ink"),
        ("host=db password='it\\'s' dbname=ink", "host=db password=*** dbname=ink"),
        ("host=db sslpassword=x password=hunter2", "host=db sslpassword=*** password=***"),
        ("host=db password = hunter2", "host=db password = ***"),
        ("dbname=postgres://app:s3cret@db/ink", "dbname=postgres://app:***@db/ink"),
        ("host=db password='unclosed", "(a PostgreSQL connection string that does not parse)"),
        ("data/inksticker.sqlite", "data/inksticker.sqlite"),
    ])
    func passwordsAreNeverShown(_ location: String, _ shown: String) {
        #expect(DatabaseLocation.redacted(location) == shown)
    }

    @Test func libpqMessagesLoseThePassword() {
        #expect(PostgresConnection.withoutSecrets("FATAL: role hunter2 does not exist", conninfo: "host=db password=hunter2")
                == "FATAL: role *** does not exist")
        // A string libpq cannot parse: its message would quote the offending token.
        let unparsable = PostgresConnection.withoutSecrets(#"invalid percent-encoded token: "s3cr%t!""#,
                                                           conninfo: "postgres://app:s3cr%t!@localhost/db")
        #expect(!unparsable.contains("s3cr"))
    }
}
