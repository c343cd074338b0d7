import Foundation
import HTTPServer
import Ink
import OCR
import Store
import TextLayout

/// The running service: database, worker pools and the HTTP server, started and stopped in order.
public final class Service: Sendable {
    public let server: HTTPServer
    let services: AppServices
    let blocking: WorkPool
    let streams: EventStreams
    let housekeeping: Housekeeping

    /// The bound port (meaningful with `--port 0`).
    public var port: Int { server.port }

    private init(server: HTTPServer, services: AppServices, blocking: WorkPool, streams: EventStreams,
                 housekeeping: Housekeeping) {
        self.server = server
        self.services = services
        self.blocking = blocking
        self.streams = streams
        self.housekeeping = housekeeping
    }

    /// Opens the database (applying migrations), starts the workers and the server.
    /// Throws a `StartupError` naming what is wrong and how to fix it.
    public static func start(configuration: AppConfiguration, logSink: any LogSink = FileDescriptorLogSink()) throws -> Service {
        var configuration = configuration
        let log = AppLog(sink: logSink)
        let migrationsDirectory: String
        do {
            migrationsDirectory = try MigrationDirectory.locate(explicitPath: configuration.migrationsDirectory)
        } catch {
            throw StartupError("cannot find the migrations directory: \(error)")
        }
        var databaseConfiguration = DatabaseConfiguration()
        databaseConfiguration.synchronous = configuration.synchronous
        databaseConfiguration.readerCount = max(2, configuration.blockingThreads)
        databaseConfiguration.poolSize = configuration.databasePoolSize ?? max(2, configuration.blockingThreads)
        databaseConfiguration.connectTimeoutSeconds = configuration.databaseConnectTimeoutSeconds
        databaseConfiguration.statementTimeoutMilliseconds = configuration.databaseStatementTimeoutMs
        let database: Database
        do {
            database = try Database(location: configuration.databasePath, migrationsDirectory: migrationsDirectory,
                                    configuration: databaseConfiguration)
        } catch {
            throw StartupError("cannot open the database at \(DatabaseLocation.redacted(configuration.databasePath)): \(error)")
        }
        if !database.migrationsAppliedAtOpen.isEmpty {
            log.info("applied migrations", ["versions": database.migrationsAppliedAtOpen.map(String.init).joined(separator: ",")])
        }
        let projectRoot = (migrationsDirectory as NSString).deletingLastPathComponent
        let fonts: FontLibrary
        do {
            fonts = try FontLibrary()
        } catch {
            try? database.close()
            throw StartupError("cannot load fonts: \(error)")
        }
        let models = (configuration.modelsDirectory as NSString).isAbsolutePath
            ? configuration.modelsDirectory : projectRoot + "/" + configuration.modelsDirectory
        let catalog = TessdataCatalog(tessdataDirectory: configuration.tessdataDirectory, extraDirectories: [models],
                                      aliases: configuration.languageAliases, hintModels: configuration.hintModels)
        if let preferred = configuration.preferredLanguage {
            // The shipped model is what the service is measured with: its absence is an
            // installation error, not a reason to read handwriting with a print model silently.
            guard catalog.directories[preferred] != nil else {
                try? database.close()
                throw StartupError("the pen-ink model \(preferred).traineddata is not in \(models): restore Models/ from the"
                    + " repository (or rebuild it with training/train.sh), point --models at it, or pass --lang eng"
                    + " to run with Tesseract's stock English model instead")
            }
            configuration.defaultLanguage = preferred
        }
        let pool: OCRWorkerPool
        do {
            pool = try OCRWorkerPool(configuration: OCRConfiguration(
                workerCount: configuration.ocrWorkers, queueDepth: configuration.effectiveOCRQueue,
                defaultLanguage: configuration.defaultLanguage, catalog: catalog,
                defaultDeadlineMilliseconds: configuration.ocrDeadlineMs))
        } catch {
            try? database.close()
            if case .unknownLanguage(let language, let installed) = error {
                throw StartupError("recognition language '\(language)' is not installed in \(configuration.tessdataDirectory)"
                    + " (installed: \(installed.isEmpty ? "none" : installed.joined(separator: ", "))); install Debian's"
                    + " tesseract-ocr-\(language) package or pass --tessdata DIR holding \(language).traineddata")
            }
            throw StartupError("cannot start the recognisers: \(error)")
        }
        if !OpenMPGuard.isSingleThreaded {
            log.warning("OMP_THREAD_LIMIT is not 1: Tesseract will be several times slower; start through scripts/run.sh or set OMP_THREAD_LIMIT=1")
        }
        let metrics = HTTPMetrics(shards: configuration.server.eventLoops)
        let blocking = WorkPool(threads: configuration.blockingThreads, capacity: configuration.blockingQueue, name: "blocking")
        var inkLimits = InkLimits()
        inkLimits.maxStrokes = configuration.maxStrokes
        inkLimits.maxPointsPerStroke = configuration.maxPointsPerStroke
        inkLimits.maxTotalPoints = configuration.maxTotalPoints
        let services = AppServices(configuration: configuration, database: database, log: log,
                                   httpMetrics: metrics, files: StaticFiles.load(projectRoot: projectRoot),
                                   blocking: blocking, layout: StickerLayout(library: fonts), events: EventHub(),
                                   recognizer: InkRecognizer(pool: pool, options: configuration.recognitionOptions),
                                   inkDecoder: InkDecoder(limits: inkLimits),
                                   rateLimits: RequestRateLimits(
                                       perAddress: RateLimiter(limit: .init(rate: configuration.inkRatePerAddress.rate, burst: configuration.inkRatePerAddress.burst)),
                                       perToken: RateLimiter(limit: .init(rate: configuration.inkRatePerToken.rate, burst: configuration.inkRatePerToken.burst)),
                                       trustedProxies: configuration.trustedProxies,
                                       boardsPerAddress: RateLimiter(limit: .init(rate: configuration.boardRatePerAddress.rate,
                                                                                  burst: configuration.boardRatePerAddress.burst))))
        let streams = EventStreams()
        let application = Self.application(services, streams: streams)
        let server: HTTPServer
        do {
            server = try HTTPServer.start(configuration: configuration.server, handler: application,
                                          logSink: logSink, metrics: metrics)
        } catch {
            blocking.shutdown()
            pool.shutdown()
            try? database.close()
            throw StartupError("cannot listen on \(configuration.server.host):\(configuration.server.port): \(error.message)")
        }
        let housekeeping: Housekeeping
        do {
            // At least a millisecond: only 0 keeps events forever, and no positive value deletes them at once.
            let retention = configuration.eventRetentionDays > 0 ? max(1, Int64(configuration.eventRetentionDays * 86_400_000)) : nil
            housekeeping = try Housekeeping(database: database, log: log, counters: services.housekeeping, eventRetentionMs: retention,
                                            interval: .milliseconds(Int(configuration.housekeepingIntervalSeconds * 1000)))
        } catch {
            server.shutdown(gracePeriod: .seconds(0))
            blocking.shutdown()
            pool.shutdown()
            try? database.close()
            throw StartupError("cannot start the housekeeping thread: \(error)")
        }
        log.info("listening", ["host": configuration.server.host, "port": String(server.port),
                               "database": database.location])
        return Service(server: server, services: services, blocking: blocking, streams: streams, housekeeping: housekeeping)
    }

    /// Every route of the API on `services`: the HTTP handler the server runs, and what route
    /// tests drive in-process (with a recognizer of their own, no sockets).
    static func application(_ services: AppServices, streams: EventStreams) -> Application {
        services.followDatabase()
        // Only the ink routes take large bodies; every other route, and a request that matches none, the small limit.
        var router = RouterBuilder(defaultBodyLimit: services.configuration.maxSmallBodyBytes)
        SystemRoutes.register(&router, services)
        RecognitionRoutes.register(&router, services)
        BoardRoutes.register(&router, services)
        StickerCreateRoute.register(&router, services)
        StickerReadRoutes.register(&router, services)
        StickerEditRoutes.register(&router, services)
        GestureUndo.register(&router, services)
        RenderRoutes.register(&router, services)
        EventRoutes.register(&router, services, streams)
        return Application(router: router.freeze(), blocking: services.blocking, log: services.log,
                           cors: CORSPolicy(origins: services.configuration.corsOrigins))
    }

    /// Stops accepting, lets in-flight requests finish within the grace period, then closes the
    /// workers and the database cleanly.
    public func stop() {
        let grace = services.configuration.shutdownGrace
        streams.stop()
        server.shutdown(gracePeriod: grace)
        services.recognizer.shutdown()
        blocking.shutdown()
        housekeeping.stop()
        do {
            try services.database.close()
        } catch {
            services.log.error("closing the database failed", ["error": "\(error)"])
        }
        services.log.info("stopped")
    }
}

/// A start-up failure with a message for the operator; the executable prints it and exits non-zero.
public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
