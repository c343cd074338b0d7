import Foundation
import Glibc
import HTTPServer
import Ink
import OCR
import Store

/// The long-lived parts every route may use, injected once at start-up.
struct AppServices: Sendable {
    struct Check: Sendable {
        var name: String
        var ok: Bool
        var detail: String
    }

    let configuration: AppConfiguration
    let database: Database
    let log: AppLog
    let httpMetrics: HTTPMetrics
    let files: StaticFiles
    let blocking: WorkPool
    let layout: StickerLayout
    let events: EventHub
    let recognizer: any InkRecognizing
    let inkDecoder: InkDecoder
    let listingCache = ListingCache()
    let housekeeping = HousekeepingCounters()
    let rateLimits: RequestRateLimits

    /// The checks every ink post passes before any work is done for it: the client's ink rate
    /// (429) and a free recognition slot (503), refused at once, before reading the database
    /// or decoding the ink.
    func admitInk(_ context: RequestContext) throws(APIError) {
        try rateLimits.check(context)
        guard recognizer.hasCapacity else { throw ErrorMapping.ocrError(.overloaded(retryAfterSeconds: 1)) }
    }

    /// Keeps what is served from memory and the live streams in step with the database: every
    /// write transaction of this node drops the cached reads of the boards it touched before its
    /// response is sent; an event committed by another node (PostgreSQL's NOTIFY) drops that
    /// board's and wakes its streams; the listener's periodic sweep wakes every stream; and while
    /// notifications cannot reach this node (PostgreSQL's listener away), nothing is served from
    /// memory, and everything is dropped when it is back.
    func followDatabase() {
        let cache = listingCache, events = self.events
        database.observeWrites(began: { cache.writeBegan(board: $0) }, ended: { cache.writeEnded(boards: $0) })
        database.observeEvents { signal in
            switch signal {
            case .board(let board):
                cache.invalidate(board: board)
                events.notify(boardId: board)
            case .sweep:
                events.notifyAll()
            case .listening(let listening):
                cache.follow(listening)
                if listening { events.notifyAll() }
            }
        }
    }

    /// Runs `work` on the blocking pool and answers with what it returns (nil: it answers later itself).
    /// A full pool answers 503 at once.
    func onBlocking(_ responder: Responder, requestID: String,
                    _ work: @escaping @Sendable () throws -> HTTPResponse?) {
        let log = self.log
        let accepted = blocking.submit {
            do {
                if let response = try work() { responder.send(response) }
            } catch {
                responder.send(Self.errorResponse(error, route: responder.route, requestID: requestID, log: log))
            }
        }
        if !accepted {
            responder.fail(APIError(.serviceUnavailable, "the server is busy; retry shortly", headers: [("Retry-After", "1")]))
        }
    }

    /// The response for any error: mapped API errors as they are, anything else logged and answered 500.
    static func errorResponse(_ error: any Error, route: String, requestID: String, log: AppLog) -> HTTPResponse {
        if let apiError = ErrorMapping.apiError(error) { return apiError.response() }
        log.error("unhandled error", ["route": route, "requestId": requestID, "error": "\(error)"])
        return APIError(.internalServerError, "internal error; see the server log for request \(requestID)").response()
    }

    /// Whether each dependency can serve requests now.
    func readiness() -> [Check] {
        var checks: [Check] = []
        do {
            let count = try database.read { try $0.appliedMigrations().count }
            checks.append(Check(name: "database", ok: count > 0, detail: "no migrations applied"))
        } catch {
            checks.append(Check(name: "database", ok: false, detail: "unavailable"))
        }
        checks.append(Check(name: "ocr", ok: recognizer.isReady, detail: "recognisers not running"))
        return checks
    }

    func prometheusText() -> String {
        var text = httpMetrics.prometheusText()
        let ocr = recognizer.metrics
        text += "# HELP ocr_workers Tesseract workers.\n# TYPE ocr_workers gauge\nocr_workers \(ocr.workerCount)\n"
        text += "# HELP ocr_busy_workers Workers recognising now.\n# TYPE ocr_busy_workers gauge\nocr_busy_workers \(ocr.busyWorkers)\n"
        text += "# HELP ocr_queue_depth Recognitions waiting.\n# TYPE ocr_queue_depth gauge\nocr_queue_depth \(ocr.queueDepth)\n"
        text += "# HELP ocr_jobs_total Recognition jobs by outcome (skipped: an auto job whose reading was no longer needed or put off).\n"
        text += "# TYPE ocr_jobs_total counter\n"
        text += "ocr_jobs_total{outcome=\"succeeded\"} \(ocr.jobsSucceeded)\n"
        text += "ocr_jobs_total{outcome=\"skipped\"} \(ocr.jobsSkipped)\n"
        text += "ocr_jobs_total{outcome=\"failed\"} \(ocr.jobsFailed)\n"
        text += "ocr_jobs_total{outcome=\"rejected\"} \(ocr.jobsRejected)\n"
        text += "ocr_jobs_total{outcome=\"cancelled\"} \(ocr.jobsCancelled)\n"
        text += "# HELP ocr_deadline_exceeded_total Recognitions stopped at their deadline.\n# TYPE ocr_deadline_exceeded_total counter\nocr_deadline_exceeded_total \(ocr.deadlineExceeded)\n"
        text += "# HELP blocking_queue_depth Jobs waiting for the blocking pool.\n# TYPE blocking_queue_depth gauge\nblocking_queue_depth \(blocking.queueDepth)\n"
        let cached = listingCache.counts
        text += "# HELP board_cache_lookups_total Board listings and pictures asked for in memory, by result.\n# TYPE board_cache_lookups_total counter\n"
        text += "board_cache_lookups_total{result=\"hit\"} \(cached.hits)\nboard_cache_lookups_total{result=\"miss\"} \(cached.misses)\n"
        text += "# HELP board_cache_bytes Bytes of board listings and pictures kept in memory.\n# TYPE board_cache_bytes gauge\nboard_cache_bytes \(cached.bytes)\n"
        text += "# HELP event_stream_subscribers Open event streams.\n# TYPE event_stream_subscribers gauge\nevent_stream_subscribers \(events.subscriberCount)\n"
        let deleted = housekeeping.current
        text += "# HELP housekeeping_deleted_total Rows housekeeping deleted: expired idempotency records, events past the retention.\n"
        text += "# TYPE housekeeping_deleted_total counter\n"
        text += "housekeeping_deleted_total{kind=\"idempotency_records\"} \(deleted.idempotencyRecords)\n"
        text += "housekeeping_deleted_total{kind=\"events\"} \(deleted.events)\n"
        text += "# HELP housekeeping_failures_total Housekeeping rounds stopped by a database error.\n"
        text += "# TYPE housekeeping_failures_total counter\nhousekeeping_failures_total \(deleted.failures)\n"
        return text
    }
}

/// Files served from the project directory, read once at start-up: the API description and the web page.
struct StaticFiles: Sendable {
    struct Asset: Sendable {
        let body: [UInt8]
        let contentType: String
        let etag: String
    }

    let openAPI: [UInt8]?
    /// The API description's entity tag, computed once at start-up.
    let openAPIETag: String
    /// `Public/` files by name (no subdirectories), e.g. `index.html`, `app.js`.
    let assets: [String: Asset]

    static let maxAssetBytes = 4 << 20

    /// Reads the files that sit next to the migrations directory (the project root).
    static func load(projectRoot: String) -> StaticFiles {
        var assets: [String: Asset] = [:]
        let directory = projectRoot + "/Public"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where !name.hasPrefix(".") {
            guard let body = FileBytes.read(directory + "/" + name), body.count <= maxAssetBytes else { continue }
            let tag = "\"" + SHA256.hexDigest(body).prefix(16) + "\""
            assets[name] = Asset(body: body, contentType: contentType(name), etag: tag)
        }
        let openAPI = FileBytes.read(projectRoot + "/openapi.yaml")
        return StaticFiles(openAPI: openAPI, openAPIETag: "\"" + SHA256.hexDigest(openAPI ?? []).prefix(16) + "\"",
                           assets: assets)
    }

    static func contentType(_ name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}

enum FileBytes {
    static func read(_ path: String) -> [UInt8]? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, handle)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
