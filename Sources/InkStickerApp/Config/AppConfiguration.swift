import Foundation
import HTTPServer
import OCR
import Store

/// Every setting of the service. Each has a command-line option and an environment variable
/// (see `AppOptions`), and a default that runs on a fresh machine.
public struct AppConfiguration: Sendable {
    public var server = HTTPServerConfiguration()
    /// A SQLite file, or a PostgreSQL `postgres://` URL or `host=… dbname=…` string (see `DatabaseLocation`).
    public var databasePath = "./data/inksticker.sqlite"
    /// PostgreSQL connections per node; nil uses one per blocking thread.
    public var databasePoolSize: Int?
    /// PostgreSQL connect timeout, in seconds.
    public var databaseConnectTimeoutSeconds = 5
    /// PostgreSQL statement timeout, in milliseconds.
    public var databaseStatementTimeoutMs = 10_000
    /// Directory of the numbered migration files; nil searches `./Migrations` and the executable's ancestors.
    public var migrationsDirectory: String?
    public var synchronous: DatabaseConfiguration.Synchronous = .normal
    /// Threads that run SQLite work and other blocking handlers.
    public var blockingThreads = 4
    /// Requests queued for those threads before new ones get 503.
    public var blockingQueue = 512
    /// Tesseract workers (one handle each).
    public var ocrWorkers = max(1, ProcessFacts.activeCores)
    /// Recognitions queued before new ink gets 503 with Retry-After.
    public var ocrQueue = 0
    /// Longest one recognition may take before it is abandoned.
    public var ocrDeadlineMs = 5_000
    public var tessdataDirectory = "/usr/share/tesseract-ocr/5/tessdata"
    /// Extra directory of `.traineddata` models shipped with the service.
    public var modelsDirectory = "./Models"
    /// Language used when a request names none. Replaced at start-up by `preferredLanguage`
    /// unless `--lang` set this (which clears the preference).
    public var defaultLanguage = "eng"
    /// The model that becomes the default language: `ink-tall`, the pen-ink model shipped in
    /// `Models/` that reads lines 48 pixels high (see Models/README.md). Start-up fails with a
    /// clear message when it is missing; `--lang` sets `defaultLanguage` and clears this, for
    /// running without it.
    public var preferredLanguage: String? = "ink-tall"
    /// Request names read by another model (name → model file name). By default a request for
    /// English (`eng`) is read by the pen-ink model, and Tesseract's stock `eng` stays available
    /// as `eng-stock`. An alias whose model is not installed is ignored, so without
    /// `Models/ink-tall.traineddata` `eng` is the stock model again. Korean likewise: `kor` and
    /// `ko` are the Korean pen-ink model, `kor-stock` Tesseract's `kor` (tesseract-ocr-kor).
    public var languageAliases = ["eng": "ink-tall", "eng-stock": "eng", "kor": "kor-ink", "ko": "kor-ink", "kor-stock": "kor"]
    /// Models that read another model's requests under a character hint (model → hint → model),
    /// beside the `<model>-<hint>` files: the default reading's numbers by `ink-number` and its
    /// isolated digits by `ink` (the 36-pixel network, which reads them better).
    public var hintModels = ["ink-tall": ["number": "ink-number", "digits": "ink"]]
    /// Which models read ink split into lines by blocks of strokes rather than stroke by stroke
    /// (see `SyllableBlockPolicy`): by default the Korean ones.
    public var syllableBlocks = SyllableBlockPolicy.koreanModels
    /// The margin of ink split by syllable blocks (`RecognitionOptions.blockMarginScale`).
    public var blockMarginScale = RecognitionOptions().blockMarginScale
    /// The height of ink split by syllable blocks (`RecognitionOptions.blockInkScale`).
    public var blockInkScale = RecognitionOptions().blockInkScale
    /// Horizontal stretch of text lines and of lines under a numeric hint before they are read
    /// (`RecognitionOptions.textWidthScale`, `longTextWidthScale`, `numericWidthScale`).
    public var textWidthScale = RecognitionOptions().textWidthScale
    public var longTextWidthScale = RecognitionOptions().longTextWidthScale
    public var numericWidthScale = RecognitionOptions().numericWidthScale
    /// Whether ink of a coarse digitiser is smoothed before it is read
    /// (`RecognitionOptions.smoothsCoarseInk`).
    public var smoothsCoarseInk = RecognitionOptions().smoothsCoarseInk
    /// Whether a number's tall slashes and brackets are squeezed to its digits' height before it
    /// is read (`RecognitionOptions.squeezesTallMarks`).
    public var squeezesTallMarks = RecognitionOptions().squeezesTallMarks
    /// How unsure Tesseract must be of a word for `hints.words` to replace it on distance alone
    /// (`VocabularyOptions.lowConfidence`).
    public var wordsLowConfidence = RecognitionOptions().vocabulary.lowConfidence
    /// Under `quality: auto` (the default), a line read with less confidence than these is read
    /// again in two more renderings (`RecognitionOptions.textRereadBelow` for a line read as one
    /// word, `numberRereadBelow` under the `number` hint, never under `digits`; of a line of
    /// several words, each word under `lineRereadBelow`, on its own).
    public var textRereadBelow = RecognitionOptions().textRereadBelow
    public var lineRereadBelow = RecognitionOptions().lineRereadBelow
    public var numberRereadBelow = RecognitionOptions().numberRereadBelow
    /// Whether a request under a character hint is read by its model's hint model when one is
    /// installed (`RecognitionOptions.usesHintModels`; `ink-number` under the `number` hint).
    public var usesHintModels = RecognitionOptions().usesHintModels
    /// Ink limits, checked before any work (see InkLimits for the rest).
    public var maxStrokes = 1_000
    public var maxPointsPerStroke = 10_000
    public var maxTotalPoints = 100_000
    /// Body limit for ink uploads (`/v1/recognize`, sticker creation).
    public var maxInkBodyBytes = 4 * 1024 * 1024
    /// Body limit for every other request (board, edits, and requests that match no route).
    public var maxSmallBodyBytes = 64 * 1024
    /// Ink posts (recognize, sticker creation) per remote address: rate per second and burst; rate 0 disables.
    public var inkRatePerAddress = (rate: 300.0, burst: 600.0)
    /// Ink posts per board token.
    public var inkRatePerToken = (rate: 10.0, burst: 30.0)
    /// Writings one field takes in (each is stored with it: up to `maxTotalPoints` points apiece).
    public var maxWritingsPerSticker = 200
    /// New boards per remote address: rate per second and burst; rate 0 disables.
    public var boardRatePerAddress = (rate: 1.0, burst: 100.0)
    /// Days a board's events are kept for streams to resume from; older ones are deleted by
    /// housekeeping, and a stream resuming before them gets `reset`. 0 keeps them forever.
    public var eventRetentionDays = 30.0
    /// How often expired idempotency records and events are deleted (not an option: tests shorten it).
    public var housekeepingIntervalSeconds = 600.0
    /// Peer addresses (a reverse proxy) whose `X-Forwarded-For` names the client for the
    /// per-address limit; empty: the peer is the client.
    public var trustedProxies: Set<String> = []
    /// Allowed CORS origins (`*` allows any).
    public var corsOrigins: [String] = []
    /// Time given to in-flight requests on SIGTERM/SIGINT.
    public var shutdownGrace: Duration = .seconds(10)

    public init() {
        server.limits.maxBodyBytes = 4 * 1024 * 1024
    }

    /// The OCR queue length in effect (default 4 per worker).
    public var effectiveOCRQueue: Int { ocrQueue > 0 ? ocrQueue : 4 * ocrWorkers }

    /// The recognition pipeline's options: the defaults with this configuration's choices.
    public var recognitionOptions: RecognitionOptions {
        var options = RecognitionOptions(syllableBlocks: syllableBlocks, blockMarginScale: blockMarginScale,
                                         blockInkScale: blockInkScale)
        options.textWidthScale = textWidthScale
        options.longTextWidthScale = longTextWidthScale
        options.numericWidthScale = numericWidthScale
        options.smoothsCoarseInk = smoothsCoarseInk
        options.squeezesTallMarks = squeezesTallMarks
        options.usesHintModels = usesHintModels
        options.vocabulary.lowConfidence = wordsLowConfidence
        options.textRereadBelow = textRereadBelow
        options.lineRereadBelow = lineRereadBelow
        options.numberRereadBelow = numberRereadBelow
        return options
    }
}

/// Facts about the running process's machine.
public enum ProcessFacts {
    /// Cores this process may run on.
    public static var activeCores: Int {
        var count = 0
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8) {
            let parts = text.split(separator: " ")
            if parts.count == 2, let quota = Double(parts[0]), let period = Double(parts[1]), period > 0 {
                count = max(1, Int((quota / period).rounded(.up)))
            }
        }
        #endif
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return count > 0 ? min(count, online) : max(1, online)
    }
}
