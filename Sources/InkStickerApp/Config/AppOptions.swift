import Foundation
import HTTPServer
import OCR
import Store

/// The command-line options of `inksticker serve`, each with its environment variable.
///
/// Precedence: command line, then environment, then the default.
public struct AppOption: Sendable {
    public let flag: String
    public let environment: String
    public let valueName: String
    public let help: String
    let apply: @Sendable (inout AppConfiguration, String) throws(OptionError) -> Void
}

public struct OptionError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

public enum AppOptions {
    public static let all: [AppOption] = [
        option("--host", "INKSTICKER_HOST", "ADDR", "address to listen on (default 127.0.0.1)") { c, v in c.server.host = v },
        option("--port", "INKSTICKER_PORT", "PORT", "port to listen on; 0 picks a free one and logs it (default 8080)") { c, v throws(OptionError) in
            c.server.port = try int(v, "--port", 0...65535)
        },
        option("--db", "INKSTICKER_DB", "PATH|URL", "SQLite database file (default ./data/inksticker.sqlite), or PostgreSQL: postgres://user@host/db or 'host=… dbname=…'") { c, v in c.databasePath = v },
        option("--db-pool", "INKSTICKER_DB_POOL", "N", "PostgreSQL connections per node (default: --db-threads, at least 2)") { c, v throws(OptionError) in
            c.databasePoolSize = try int(v, "--db-pool", 1...1_000)
        },
        option("--db-connect-timeout", "INKSTICKER_DB_CONNECT_TIMEOUT", "S", "PostgreSQL connect timeout in seconds (default 5)") { c, v throws(OptionError) in
            c.databaseConnectTimeoutSeconds = try int(v, "--db-connect-timeout", 1...600)
        },
        option("--db-statement-timeout-ms", "INKSTICKER_DB_STATEMENT_TIMEOUT_MS", "MS", "PostgreSQL statement timeout (default 10000)") { c, v throws(OptionError) in
            c.databaseStatementTimeoutMs = try int(v, "--db-statement-timeout-ms", 1...3_600_000)
        },
        option("--migrations", "INKSTICKER_MIGRATIONS", "DIR", "migration files (default: ./Migrations, else next to the executable)") { c, v in c.migrationsDirectory = v },
        option("--synchronous", "INKSTICKER_SYNCHRONOUS", "normal|full", "SQLite durability: normal (default) or full") { c, v throws(OptionError) in
            guard let value = DatabaseConfiguration.Synchronous(rawValue: v.uppercased()) else { throw OptionError("--synchronous must be normal or full") }
            c.synchronous = value
        },
        option("--event-loops", "INKSTICKER_EVENT_LOOPS", "N", "socket I/O threads (default 1)") { c, v throws(OptionError) in
            c.server.eventLoops = try int(v, "--event-loops", 1...64)
        },
        option("--db-threads", "INKSTICKER_DB_THREADS", "N", "threads for database work (default 4)") { c, v throws(OptionError) in
            c.blockingThreads = try int(v, "--db-threads", 1...256)
        },
        option("--ocr-workers", "INKSTICKER_OCR_WORKERS", "N", "Tesseract workers (default: number of cores)") { c, v throws(OptionError) in
            c.ocrWorkers = try int(v, "--ocr-workers", 1...256)
        },
        option("--ocr-queue", "INKSTICKER_OCR_QUEUE", "N", "recognitions waiting before 503 (default 4 per worker)") { c, v throws(OptionError) in
            c.ocrQueue = try int(v, "--ocr-queue", 1...100_000)
        },
        option("--ocr-deadline-ms", "INKSTICKER_OCR_DEADLINE_MS", "MS", "longest time for one recognition (default 5000)") { c, v throws(OptionError) in
            c.ocrDeadlineMs = try int(v, "--ocr-deadline-ms", 10...600_000)
        },
        option("--tessdata", "INKSTICKER_TESSDATA", "DIR", "Tesseract language data (default /usr/share/tesseract-ocr/5/tessdata)") { c, v in c.tessdataDirectory = v },
        option("--models", "INKSTICKER_MODELS", "DIR", "extra .traineddata models (default ./Models)") { c, v in
            // A path given is taken from the current directory, as every path option is; only the
            // default is looked up beside the migrations.
            c.modelsDirectory = v.hasPrefix("/") ? v : FileManager.default.currentDirectoryPath + "/" + v
        },
        option("--lang", "INKSTICKER_LANG", "LANG", "default recognition language (default ink-tall, the pen-ink model in the models directory, required unless --lang is given)") { c, v in
            c.defaultLanguage = v
            c.preferredLanguage = nil
        },
        option("--lang-alias", "INKSTICKER_LANG_ALIAS", "NAME=MODEL,...", "request names served by another model; empty for none (default eng=ink-tall,eng-stock=eng,kor=kor-ink,ko=kor-ink,kor-stock=kor)") { c, v throws(OptionError) in
            c.languageAliases = try aliases(v)
        },
        option("--syllable-blocks", "INKSTICKER_SYLLABLE_BLOCKS", "korean|all|none", "models whose ink is split into lines by blocks of strokes (Hangul syllables, letters with their dots) rather than stroke by stroke; korean: models named kor* (default korean)") { c, v throws(OptionError) in
            guard let policy = SyllableBlockPolicy(rawValue: v) else {
                throw OptionError("--syllable-blocks is korean, all or none, not \(v)")
            }
            c.syllableBlocks = policy
        },
        option("--block-margin-scale", "INKSTICKER_BLOCK_MARGIN_SCALE", "X", "margin of ink split by syllable blocks, as a multiple of other lines' margin, its ink drawn taller so the image stays as high; 0 to 1 (default 1)") { c, v throws(OptionError) in
            c.blockMarginScale = try number(v, "--block-margin-scale", 0...1)
        },
        option("--block-ink-scale", "INKSTICKER_BLOCK_INK_SCALE", "model|X", "height of the images of ink split by syllable blocks, as a multiple of other lines': model, as high as the model's network reads lines (48 pixels for the Korean models, against 38), or a number from 1 to 2 for every model (default model)") { c, v throws(OptionError) in
            if v == "model" {
                c.blockInkScale = .model
                return
            }
            guard let value = Double(v), (1...2).contains(value) else {
                throw OptionError("--block-ink-scale is model or a number in 1...2, got '\(v)'")
            }
            c.blockInkScale = .fixed(value)
        },
        option("--text-width-scale", "INKSTICKER_TEXT_WIDTH_SCALE", "X", "how much wider than its proportions a text line is drawn for the recognizer, 0.5 to 2 (default 1.25)") { c, v throws(OptionError) in
            c.textWidthScale = try widthScale(v, "--text-width-scale")
        },
        option("--long-text-width-scale", "INKSTICKER_LONG_TEXT_WIDTH_SCALE", "X", "the same for long text lines: lines at least 10 heights wide get X, lines up to 4 heights the text width scale, linear between; 0.5 to 2 (default 1.4)") { c, v throws(OptionError) in
            c.longTextWidthScale = try widthScale(v, "--long-text-width-scale")
        },
        option("--numeric-width-scale", "INKSTICKER_NUMERIC_WIDTH_SCALE", "X", "the same for lines under the number hint (default 1; the digits hint is never stretched)") { c, v throws(OptionError) in
            c.numericWidthScale = try widthScale(v, "--numeric-width-scale")
        },
        option("--coarse-ink", "INKSTICKER_COARSE_INK", "smooth|keep", "ink from a coarse digitiser (points on a grid coarser than 1/24 of its height, or further apart than 1/5 of it): smoothed before it is read, or kept as sent (default smooth)") { c, v throws(OptionError) in
            c.smoothsCoarseInk = try choice(v, "--coarse-ink", on: "smooth", off: "keep")
        },
        option("--tall-marks", "INKSTICKER_TALL_MARKS", "squeeze|keep", "under the number hint, strokes taller than 1.35 times the digits (slashes, brackets): squeezed to 1.15 times their height before the line is read, or kept as drawn (default squeeze)") { c, v throws(OptionError) in
            c.squeezesTallMarks = try choice(v, "--tall-marks", on: "squeeze", off: "keep")
        },
        option("--hint-models", "INKSTICKER_HINT_MODELS", "use|ignore", "a request under a character hint read by its model's hint model, <model>-<hint>.traineddata or one named in the configuration, when installed (ink-number: numbers under the number hint; ink: ink-tall's digits), or by the model itself (default use)") { c, v throws(OptionError) in
            c.usesHintModels = try choice(v, "--hint-models", on: "use", off: "ignore")
        },
        option("--words-low-confidence", "INKSTICKER_WORDS_LOW_CONFIDENCE", "C", "hints.words may replace a word Tesseract is less sure of than this (0 to 1) on its distance alone; a surer word only when Tesseract's own alternatives spell the replacement (default 0.3)") { c, v throws(OptionError) in
            c.wordsLowConfidence = try number(v, "--words-low-confidence", 0...1)
        },
        option("--reread-below", "INKSTICKER_REREAD_BELOW", "C", "under quality auto (the default), a line of text read as one word with less confidence than this (0 to 1) is read again in two more renderings and the reading the three agree on wins; 0 reads it once (default 0.4)") { c, v throws(OptionError) in
            c.textRereadBelow = try number(v, "--reread-below", 0...1)
        },
        option("--line-reread-below", "INKSTICKER_LINE_REREAD_BELOW", "C", "the same for each word of a line of text read as several words, read again on its own from its strokes (default 0.5; 0: never)") { c, v throws(OptionError) in
            c.lineRereadBelow = try number(v, "--line-reread-below", 0...1)
        },
        option("--number-reread-below", "INKSTICKER_NUMBER_REREAD_BELOW", "C", "the same under the number hint, whatever the word count: its readings are surer (default 0.9)") { c, v throws(OptionError) in
            c.numberRereadBelow = try number(v, "--number-reread-below", 0...1)
        },
        option("--max-connections", "INKSTICKER_MAX_CONNECTIONS", "N", "open connections before 503 (default 4096)") { c, v throws(OptionError) in
            c.server.maxConnections = try int(v, "--max-connections", 1...1_000_000)
        },
        option("--max-body-bytes", "INKSTICKER_MAX_BODY_BYTES", "BYTES", "largest ink request body (default 4194304)") { c, v throws(OptionError) in
            let value = try int(v, "--max-body-bytes", 1024...(1 << 30))
            c.maxInkBodyBytes = value
            c.server.limits.maxBodyBytes = value
        },
        option("--max-header-bytes", "INKSTICKER_MAX_HEADER_BYTES", "BYTES", "largest request head (default 32768)") { c, v throws(OptionError) in
            c.server.limits.maxHeaderBytes = try int(v, "--max-header-bytes", 1024...(1 << 20))
        },
        option("--header-timeout", "INKSTICKER_HEADER_TIMEOUT", "SECONDS", "time to receive a request head (default 10)") { c, v throws(OptionError) in
            c.server.headerTimeout = .milliseconds(try seconds(v, "--header-timeout"))
        },
        option("--body-timeout", "INKSTICKER_BODY_TIMEOUT", "SECONDS", "time to receive a request body (default 30)") { c, v throws(OptionError) in
            c.server.bodyTimeout = .milliseconds(try seconds(v, "--body-timeout"))
        },
        option("--keepalive-timeout", "INKSTICKER_KEEPALIVE_TIMEOUT", "SECONDS", "idle keep-alive time (default 15)") { c, v throws(OptionError) in
            c.server.keepAliveTimeout = .milliseconds(try seconds(v, "--keepalive-timeout"))
        },
        option("--shutdown-grace", "INKSTICKER_SHUTDOWN_GRACE", "SECONDS", "time for in-flight requests on SIGTERM (default 10)") { c, v throws(OptionError) in
            c.shutdownGrace = .milliseconds(try seconds(v, "--shutdown-grace"))
        },
        option("--rate-ink-per-address", "INKSTICKER_RATE_INK_PER_ADDRESS", "RATE[:BURST]", "ink posts per second per client address (default 300:600; 0 disables)") { c, v throws(OptionError) in
            c.inkRatePerAddress = try rate(v, "--rate-ink-per-address")
        },
        option("--trusted-proxy", "INKSTICKER_TRUSTED_PROXIES", "ADDRS", "comma-separated addresses of reverse proxies whose X-Forwarded-For names the client for the per-address limits (default none)") { c, v in
            // Given several times, the lists add up (as --cors-origin's do).
            c.trustedProxies.formUnion(v.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        },
        option("--rate-ink-per-token", "INKSTICKER_RATE_INK_PER_TOKEN", "RATE[:BURST]", "ink posts per second per board token (default 10:30; 0 disables)") { c, v throws(OptionError) in
            c.inkRatePerToken = try rate(v, "--rate-ink-per-token")
        },
        option("--rate-boards-per-address", "INKSTICKER_RATE_BOARDS_PER_ADDRESS", "RATE[:BURST]", "new boards per second per client address (default 1:100; 0 disables)") { c, v throws(OptionError) in
            c.boardRatePerAddress = try rate(v, "--rate-boards-per-address")
        },
        option("--keep-events-days", "INKSTICKER_KEEP_EVENTS_DAYS", "DAYS", "days a board's events are kept for event streams to resume from; older ones are deleted, and a stream resuming before them gets a reset event (default 30; 0 keeps them forever)") { c, v throws(OptionError) in
            c.eventRetentionDays = try number(v, "--keep-events-days", 0...36_500)
        },
        option("--cors-origin", "INKSTICKER_CORS_ORIGINS", "ORIGINS", "comma-separated allowed CORS origins, or * (default none)") { c, v in
            c.corsOrigins += v.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        },
    ]

    /// `NAME=MODEL` pairs separated by commas; an empty value means no aliases.
    static func aliases(_ text: String) throws(OptionError) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !pair.isEmpty {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw OptionError("--lang-alias takes NAME=MODEL pairs separated by commas, not '\(pair)'")
            }
            result[parts[0]] = parts[1]
        }
        return result
    }

    static func option(_ flag: String, _ env: String, _ valueName: String, _ help: String,
                       _ apply: @escaping @Sendable (inout AppConfiguration, String) throws(OptionError) -> Void) -> AppOption {
        AppOption(flag: flag, environment: env, valueName: valueName, help: help, apply: apply)
    }

    static func int(_ text: String, _ flag: String, _ range: ClosedRange<Int>) throws(OptionError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw OptionError("\(flag) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// `RATE` or `RATE:BURST` (burst defaults to twice the rate).
    static func rate(_ text: String, _ flag: String) throws(OptionError) -> (rate: Double, burst: Double) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let rate = Double(parts[0]), rate >= 0, rate <= 1e6,
              parts.count == 1 || Double(parts[1]).map({ $0 >= 1 && $0 <= 1e7 }) == true else {
            throw OptionError("\(flag) must be RATE or RATE:BURST with a rate in 0...1000000 per second, got '\(text)'")
        }
        return (rate, parts.count == 2 ? Double(parts[1]) ?? rate * 2 : max(1, rate * 2))
    }

    /// A number in `range`.
    static func number(_ text: String, _ flag: String, _ range: ClosedRange<Double>) throws(OptionError) -> Double {
        guard let value = Double(text), range.contains(value) else {
            let bound = { (x: Double) in x == x.rounded() ? String(Int(x)) : String(x) }
            throw OptionError("\(flag) must be a number in \(bound(range.lowerBound))...\(bound(range.upperBound)), got '\(text)'")
        }
        return value
    }

    /// A horizontal stretch of line images, 0.5 to 2.
    static func widthScale(_ text: String, _ flag: String) throws(OptionError) -> Double {
        try number(text, flag, 0.5...2)
    }

    /// One of two words: true for `on`, false for `off`.
    static func choice(_ text: String, _ flag: String, on: String, off: String) throws(OptionError) -> Bool {
        switch text {
        case on: return true
        case off: return false
        default: throw OptionError("\(flag) is \(on) or \(off), not \(text)")
        }
    }

    /// Seconds (fractions allowed) as milliseconds.
    static func seconds(_ text: String, _ flag: String) throws(OptionError) -> Int {
        guard let value = Double(text), value > 0, value <= 86_400 else {
            throw OptionError("\(flag) must be a number of seconds in (0, 86400], got '\(text)'")
        }
        return Int(value * 1000)
    }

    /// Builds the configuration from the environment, then the arguments (which win). A
    /// variable whose option is on the command line is not read at all, so a stray value (a
    /// platform's `INKSTICKER_PORT=tcp://…`) cannot stop a server told its port.
    public static func parse(arguments: [String], environment: [String: String]) throws(OptionError) -> AppConfiguration {
        var configuration = AppConfiguration()
        let given = Set(arguments.map { argument in argument.firstIndex(of: "=").map { String(argument[..<$0]) } ?? argument })
        for option in all where !given.contains(option.flag) {
            if let value = environment[option.environment], !value.isEmpty {
                do {
                    try option.apply(&configuration, value)
                } catch {
                    throw OptionError("\(option.environment): \(error.description)")
                }
            }
        }
        var index = 0
        var corsFromArguments: [String]?
        while index < arguments.count {
            let argument = arguments[index]
            let (flag, inlineValue): (String, String?) = {
                if let eq = argument.firstIndex(of: "=") { return (String(argument[..<eq]), String(argument[argument.index(after: eq)...])) }
                return (argument, nil)
            }()
            guard let option = all.first(where: { $0.flag == flag }) else {
                throw OptionError("unknown option '\(argument)'; see 'inksticker --help'")
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                index += 1
                guard index < arguments.count else { throw OptionError("\(flag) needs a value (\(option.valueName))") }
                value = arguments[index]
            }
            if flag == "--cors-origin" {
                // Command-line origins replace those from the environment.
                var scratch = AppConfiguration()
                try option.apply(&scratch, value)
                corsFromArguments = (corsFromArguments ?? []) + scratch.corsOrigins
            } else {
                try option.apply(&configuration, value)
            }
            index += 1
        }
        if let corsFromArguments { configuration.corsOrigins = corsFromArguments }
        return configuration
    }

    /// The `--help` text.
    public static var helpText: String {
        var text = """
        inksticker: turns handwriting into text stickers on boards.

        Usage:
          inksticker serve [options]    start the HTTP service
          inksticker copy-db --from DB --to DB
                                        copy every board into another, empty database (SQLite ⇄ PostgreSQL)
          inksticker --help             show this help
          inksticker --version          show the version

        Options of 'serve' (each also read from the environment variable shown):

        """
        for option in all {
            let left = "  \(option.flag) \(option.valueName)"
            text += left.padding(toLength: max(left.count + 2, 34), withPad: " ", startingAt: 0) + option.help + "\n"
            text += String(repeating: " ", count: 34) + "env: \(option.environment)\n"
        }
        return text
    }
}
