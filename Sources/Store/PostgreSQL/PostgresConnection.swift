import CPostgres
import Foundation
import Glibc

/// One libpq connection. Not `Sendable`: like `SQLiteConnection`, it is used by one thread at
/// a time (the pool hands it to one caller between checkout and return).
///
/// Parameters go out in text format (bytea in binary) with types inferred by the server;
/// results come back in text format and are parsed by `PostgresRow`.
final class PostgresConnection {
    private var handle: OpaquePointer?
    /// Server-side prepared statements by SQL text: each statement is parsed and planned once per
    /// connection (`PQprepare`), then only executed (`PQexecPrepared`).
    private var prepared: [String: String] = [:]
    /// A `BEGIN` not sent yet: it goes out with the transaction's first statement, in one round
    /// trip (libpq's pipeline mode); a transaction that runs no statement never sends it.
    private var pendingBegin: String?

    /// Connects with `settings` (libpq keywords; a `dbname` holding a URL or a `key=value`
    /// string is expanded, and the keywords after it override what it says).
    init(settings: [(String, String)]) throws {
        var keywords = settings.map { strdup($0.0) }
        var values = settings.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        keywords.append(nil)
        values.append(nil)
        let handle = keywords.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { vals in
                keys.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: keys.count) { k in
                    vals.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: vals.count) { v in
                        PQconnectdbParams(k, v, 1)
                    }
                }
            }
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(handle)
            let conninfo = settings.first { $0.0 == "dbname" }?.1 ?? ""
            throw PostgresError(sqlState: nil, message: Self.withoutSecrets(Self.trimmed(message), conninfo: conninfo),
                                connectionLost: true)
        }
        self.handle = handle
        // Server notices ("extension already exists, skipping") are not errors: not printed.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// libpq's `message` about connecting with `conninfo`, with its passwords replaced by `***`.
    /// When `conninfo` does not parse, libpq's message quotes its tokens, which may be the
    /// password: then none of it is shown.
    static func withoutSecrets(_ message: String, conninfo: String) -> String {
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &parseError) else {
            if let parseError { PQfreemem(parseError) }
            return "the connection string does not parse (libpq's message is left out: it may quote the password)"
        }
        defer { PQconninfoFree(options) }
        var text = message
        var option = options
        while let keyword = option.pointee.keyword {
            if DatabaseLocation.secretSettings.contains(String(cString: keyword)), let value = option.pointee.val {
                let secret = String(cString: value)
                if !secret.isEmpty { text = text.replacingOccurrences(of: secret, with: "***") }
            }
            option += 1
        }
        return text
    }

    /// False once the server went away (the pool replaces such a connection).
    var isHealthy: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Whether an idle connection can still be used. The server ends a session it shuts down
    /// or terminates with a message and a close, which libpq notices only when it next reads;
    /// an idle pooled connection has nothing to read otherwise (it listens to no channel), so
    /// anything readable on its socket means it is finished.
    var isAlive: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// The socket, for waiting on notifications.
    var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

    func close() {
        PQfinish(handle)
        handle = nil
    }

    /// Runs `sql` with `values` bound to `$1`, `$2`, … and hands the result to `body`.
    func execute<T>(_ sql: String, _ values: [SQLValue], _ body: (OpaquePointer) throws -> T) throws -> T {
        guard let handle else { throw PostgresError(sqlState: nil, message: "connection is closed", sql: sql, connectionLost: true) }
        var types = [Oid](repeating: 0, count: values.count)
        var formats = [Int32](repeating: 0, count: values.count)
        var lengths = [Int32](repeating: 0, count: values.count)
        var buffers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: values.count)
        defer { buffers.forEach { free($0) } }
        for (index, value) in values.enumerated() {
            switch value {
            case .null: break
            case .integer(let integer): buffers[index] = strdup(String(integer))
            case .real(let real): buffers[index] = strdup(Self.text(real))
            case .text(let text):
                // A C string would end at the NUL and store the rest of the text silently cut off.
                guard !text.utf8.contains(0) else {
                    throw PostgresError(sqlState: "22021", message: "PostgreSQL text cannot hold a NUL character", sql: sql)
                }
                buffers[index] = strdup(text)
            case .blob(let bytes):
                let buffer = malloc(max(1, bytes.count))!.assumingMemoryBound(to: CChar.self)
                bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: bytes.count) }
                buffers[index] = buffer
                types[index] = 17  // bytea
                formats[index] = 1
                lengths[index] = Int32(bytes.count)
            }
        }
        let name = try statementName(sql, types: types)
        let begin = pendingBegin
        pendingBegin = nil
        let result = try buffers.withUnsafeBufferPointer { pointers throws -> OpaquePointer? in
            try pointers.baseAddress.map { base in
                try base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: pointers.count) { parameters in
                    guard let begin else { return PQexecPrepared(handle, name, Int32(values.count), parameters, lengths, formats, 0) }
                    return try pipelined(begin, then: name, sql: sql, count: Int32(values.count), parameters, lengths, formats)
                }
            } ?? {
                guard let begin else { return PQexecPrepared(handle, name, 0, nil, nil, nil, 0) }
                return try pipelined(begin, then: name, sql: sql, count: 0, nil, nil, nil)
            }()
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        return try body(result!)
    }

    /// `begin`, then the prepared statement `name`, sent together and answered together; the
    /// statement's result (its caller clears it). A failed `BEGIN` is thrown.
    private func pipelined(_ begin: String, then name: String, sql: String, count: Int32,
                           _ parameters: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
                           _ formats: UnsafePointer<Int32>?) throws -> OpaquePointer? {
        guard let handle, PQenterPipelineMode(handle) == 1 else {
            try executeScript(begin)
            return PQexecPrepared(handle, name, count, parameters, lengths, formats, 0)
        }
        guard PQsendQueryParams(handle, begin, 0, nil, nil, nil, nil, 0) == 1,
              PQsendQueryPrepared(handle, name, count, parameters, lengths, formats, 0) == 1,
              PQpipelineSync(handle) == 1 else {
            // Half a pipeline sent leaves the connection in a state no one should reuse: close it.
            let message = Self.trimmed(String(cString: PQerrorMessage(handle)))
            close()
            throw PostgresError(sqlState: nil, message: message, sql: sql, connectionLost: true)
        }
        defer { PQexitPipelineMode(handle) }
        // Each command's result is followed by a null; then the sync point.
        let beginResult = PQgetResult(handle)
        while let extra = PQgetResult(handle) { PQclear(extra) }
        let result = PQgetResult(handle)
        while let extra = PQgetResult(handle) { PQclear(extra) }
        while let sync = PQgetResult(handle) {
            let done = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
            PQclear(sync)
            if done { break }
        }
        defer { PQclear(beginResult) }
        do {
            try check(beginResult, sql: begin)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    /// The prepared statement for `sql`, prepared on first use with the parameter types known
    /// here (bytea where a blob is bound; the server infers the rest from the SQL).
    private func statementName(_ sql: String, types: [Oid]) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count + 1)"
        let result = PQprepare(handle, name, sql, Int32(types.count), types.isEmpty ? nil : types)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// Runs a parameterless script (several statements allowed).
    func executeScript(_ sql: String) throws {
        guard let handle else { throw PostgresError(sqlState: nil, message: "connection is closed", sql: sql, connectionLost: true) }
        if let begin = pendingBegin {
            pendingBegin = nil
            try executeScript(begin)
        }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Whether a transaction block is open (idle, active or failed inside one).
    var transactionStatus: PGTransactionStatusType {
        handle.map { PQtransactionStatus($0) } ?? PQTRANS_UNKNOWN
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let message = field("M") ?? handle.map { Self.trimmed(String(cString: PQerrorMessage($0))) } ?? "unknown error"
        throw PostgresError(sqlState: field("C"), message: message, constraint: field("n"), sql: sql,
                            connectionLost: !isHealthy)
    }

    /// Shortest text that reads back as the same double (PostgreSQL parses it exactly).
    private static func text(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    static func trimmed(_ message: String) -> String {
        String(message.reversed().drop(while: { $0.isWhitespace }).reversed())
    }

    /// Waits up to `milliseconds` for notifications and returns their payloads by channel.
    func notifications(waitingMilliseconds milliseconds: Int32) throws -> [(channel: String, payload: String)] {
        guard let handle else { throw PostgresError(sqlState: nil, message: "connection is closed", connectionLost: true) }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: nil, message: Self.trimmed(String(cString: PQerrorMessage(handle))),
                                connectionLost: true)
        }
        var received: [(String, String)] = []
        while let notice = PQnotifies(handle) {
            received.append((String(cString: notice.pointee.relname), String(cString: notice.pointee.extra)))
            PQfreemem(notice)
        }
        return received
    }
}

/// A row of a text-format result.
struct PostgresRow: SQLRow {
    let result: OpaquePointer
    let row: Int32

    var columnCount: Int { Int(PQnfields(result)) }

    func isNull(at index: Int) -> Bool { PQgetisnull(result, row, Int32(index)) == 1 }

    func int64(at index: Int) -> Int64 {
        guard let value = PQgetvalue(result, row, Int32(index)) else { return 0 }
        return strtoll(value, nil, 10)
    }

    func double(at index: Int) -> Double {
        guard let value = PQgetvalue(result, row, Int32(index)) else { return 0 }
        return strtod(value, nil)
    }

    func string(at index: Int) -> String {
        guard let value = PQgetvalue(result, row, Int32(index)) else { return "" }
        let count = Int(PQgetlength(result, row, Int32(index)))
        return value.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// bytea in text format: `\x` then two hex digits per byte (the pool sets `bytea_output = hex`).
    func blob(at index: Int) -> [UInt8] {
        let text = Array(string(at: index).utf8)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return [] }
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: c &- UInt8(ascii: "A") &+ 10
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var i = 2
        while i + 1 < text.count {
            bytes.append(nibble(text[i]) << 4 | nibble(text[i + 1]))
            i += 2
        }
        return bytes
    }
}

extension PostgresConnection: StoreConnection {
    var engine: StoreEngine { .postgresql }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try execute(sql, values) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    func begin(_ sql: String) throws {
        guard pendingBegin == nil, !isInTransaction else {
            throw PostgresError(sqlState: "25001", message: "a transaction is already open", sql: sql)
        }
        pendingBegin = sql
    }

    func end(commit: Bool) throws {
        if pendingBegin != nil {
            pendingBegin = nil   // nothing was sent: nothing to end
        } else if commit {
            try run("COMMIT", [])
        } else if isInTransaction {
            try run("ROLLBACK", [])
        }
    }

    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        try execute(sql, values) { result in
            let count = PQntuples(result)
            var rows: [T] = []
            rows.reserveCapacity(Int(count))
            for row in 0..<count { rows.append(try decode(PostgresRow(result: result, row: row))) }
            return rows
        }
    }

    var isInTransaction: Bool {
        if pendingBegin != nil { return true }
        let status = transactionStatus
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    func lockBoard(_ id: String) throws {
        try run("SELECT pg_advisory_xact_lock(hashtextextended($1, 1718))", [.text(id)])
    }

    func announceEvent(boardId: String) throws {
        try run("SELECT pg_notify('\(Self.eventChannel)', $1)", [.text(boardId)])
    }

    /// The channel on which nodes announce new events (payload: the board id).
    static let eventChannel = "inksticker_events"
}

@available(*, unavailable, message: "a connection must be confined to one thread at a time")
extension PostgresConnection: Sendable {}
