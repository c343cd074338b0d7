import Foundation
import HTTPServer
import Ink
import Locking
@testable import InkStickerApp
import OCR
import Store
import TestDatabases
import TextLayout

/// A recognizer that reads every ink as the next of its scripted texts (the last one repeats),
/// on a thread of its own, as the real one answers from an OCR worker.
final class ScriptedRecognizer: InkRecognizing {
    private struct State {
        var texts: [String]
        var calls: [RecognitionRequest] = []
    }

    private let state: Lock<State>
    let capacity: Bool

    init(_ texts: [String], hasCapacity: Bool = true) {
        state = Lock(State(texts: texts))
        capacity = hasCapacity
    }

    /// The requests it was asked to read, in order.
    var requests: [RecognitionRequest] { state.withLock { $0.calls } }

    func recognize(_ request: RecognitionRequest, deadlineMilliseconds: Int,
                   completion: @escaping @Sendable (Result<Recognition, OCRError>) -> Void) throws(OCRError) {
        let text: String = state.withLock { state in
            state.calls.append(request)
            return state.texts.count > 1 ? state.texts.removeFirst() : state.texts.first ?? ""
        }
        Thread.detachNewThread {
            completion(.success(Recognition(text: text, confidence: 0.9, candidates: [.init(text: text, confidence: 0.9)],
                                            lines: [], timings: .init())))
        }
    }

    var languages: [String] { ["ink", "eng"] }
    var languageAliases: [String: String] { [:] }
    var hasCapacity: Bool { capacity }
    func lineImages(for strokes: [Stroke], hint: CharacterHint, language: String?) -> [GrayImage] { [] }
    var isReady: Bool { true }
    var metrics: OCRPoolMetrics { .idle }
    func shutdown() {}
}

/// The one response a request gets, from whichever thread answers it.
private final class Answer: Sendable {
    private let value = Lock<HTTPResponse?>(nil)
    let arrived = DispatchSemaphore(value: 0)

    var response: HTTPResponse? { value.withLock { $0 } }

    func set(_ response: HTTPResponse) {
        value.withLock { $0 = response }
        arrived.signal()
    }
}

/// The whole application in-process: every route, a real SQLite file and real fonts, a scripted
/// recognizer, and no sockets. Requests go straight to the HTTP handler.
final class InProcessApp {
    let directory: String
    let services: AppServices
    let application: Application
    let recognizer: ScriptedRecognizer

    init(readings: [String] = ["milk"], hasCapacity: Bool = true, configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        directory = NSTemporaryDirectory() + "inksticker-routes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = AppConfiguration()
        configuration.databasePath = try TestDatabases.location(sqlitePath: directory + "/test.sqlite")
        configuration.defaultLanguage = "ink"
        configure(&configuration)
        let database = try Database(location: configuration.databasePath, migrationsDirectory: TestPaths.migrations)
        recognizer = ScriptedRecognizer(readings, hasCapacity: hasCapacity)
        services = AppServices(configuration: configuration, database: database, log: AppLog(sink: MemoryLogSink()),
                               httpMetrics: HTTPMetrics(shards: 1), files: StaticFiles.load(projectRoot: TestPaths.root),
                               blocking: WorkPool(threads: 2, capacity: 64, name: "test-blocking"),
                               layout: StickerLayout(library: try FontLibrary()), events: EventHub(),
                               recognizer: recognizer, inkDecoder: InkDecoder(),
                               rateLimits: RequestRateLimits(perAddress: RateLimiter(limit: .init(rate: configuration.inkRatePerAddress.rate, burst: configuration.inkRatePerAddress.burst)),
                                                       perToken: RateLimiter(limit: .init(rate: configuration.inkRatePerToken.rate, burst: configuration.inkRatePerToken.burst)),
                                                       trustedProxies: configuration.trustedProxies,
                                                       boardsPerAddress: RateLimiter(limit: .init(rate: configuration.boardRatePerAddress.rate,
                                                                                                  burst: configuration.boardRatePerAddress.burst))))
        application = Service.application(services, streams: EventStreams())
    }

    deinit {
        services.blocking.shutdown()
        try? services.database.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One request through the handler; waits for its answer (a stream body is not read).
    func request(_ method: HTTPMethod, _ target: String, json: Any? = nil, body: [UInt8]? = nil,
                 headers: [String: String] = [:], token: String? = nil) throws -> TestClient.Response {
        var fields = HTTPHeaders()
        var payload = body ?? []
        if let json {
            payload = Array(try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
            fields.add(name: "Content-Type", value: "application/json")
        }
        for (name, value) in headers { fields.replaceOrAdd(name: name, value: value) }
        if let token { fields.add(name: "Authorization", value: "Bearer \(token)") }
        let request = HTTPRequest(head: HTTPRequestHead(method: method, target: target, headers: fields), body: payload,
                                  remoteAddress: "127.0.0.1", requestID: "test")
        let answer = Answer()
        application.handle(request, writer: HTTPResponseWriter { response in answer.set(response) })
        guard answer.arrived.wait(timeout: .now() + 30) == .success, let response = answer.response else {
            throw HarnessError("no response to \(method) \(target)")
        }
        var names: [String: String] = [:]
        for field in response.headers { names[field.name.lowercased()] = field.value }
        let bytes: [UInt8]
        if case .bytes(let data) = response.body { bytes = data } else { bytes = [] }
        return TestClient.Response(status: response.status.code, headers: names, body: Data(bytes))
    }

    /// A new board: its id, token and the base path of its resources.
    func board() throws -> (id: String, token: String, base: String) {
        let created = try request(.post, "/v1/boards", json: ["title": "routes"])
        let id = created.json["id"] as? String ?? "", token = created.json["token"] as? String ?? ""
        return (id, token, "/v1/boards/\(id)")
    }
}
