import Foundation
import HTTPServer
import Store

/// The running service: database, worker pools and the HTTP server, started and stopped in order.
public final class Service: Sendable {
    public let server: HTTPServer
    let services: AppServices
    let blocking: WorkPool

    /// The bound port (meaningful with `--port 0`).
    public var port: Int { server.port }

    private init(server: HTTPServer, services: AppServices, blocking: WorkPool) {
        self.server = server
        self.services = services
        self.blocking = blocking
    }

    /// Opens the database (applying migrations), starts the workers and the server.
    /// Throws a `StartupError` naming what is wrong and how to fix it.
    public static func start(configuration: AppConfiguration, logSink: any LogSink = FileDescriptorLogSink()) throws -> Service {
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
        let database: Database
        do {
            database = try Database(path: configuration.databasePath, migrationsDirectory: migrationsDirectory,
                                    configuration: databaseConfiguration)
        } catch {
            throw StartupError("cannot open the database at \(configuration.databasePath): \(error)")
        }
        if !database.migrationsAppliedAtOpen.isEmpty {
            log.info("applied migrations", ["versions": database.migrationsAppliedAtOpen.map(String.init).joined(separator: ",")])
        }
        let projectRoot = (migrationsDirectory as NSString).deletingLastPathComponent
        let metrics = HTTPMetrics(shards: configuration.server.eventLoops)
        let services = AppServices(configuration: configuration, database: database, log: log,
                                   httpMetrics: metrics, files: StaticFiles.load(projectRoot: projectRoot))
        let blocking = WorkPool(threads: configuration.blockingThreads, capacity: configuration.blockingQueue, name: "blocking")
        var router = RouterBuilder()
        SystemRoutes.register(&router, services)
        let application = Application(router: router.freeze(), blocking: blocking, log: log,
                                      cors: CORSPolicy(origins: configuration.corsOrigins))
        let server: HTTPServer
        do {
            server = try HTTPServer.start(configuration: configuration.server, handler: application,
                                          logSink: logSink, metrics: metrics)
        } catch {
            blocking.shutdown()
            try? database.close()
            throw StartupError("cannot listen on \(configuration.server.host):\(configuration.server.port): \(error.message)")
        }
        log.info("listening", ["host": configuration.server.host, "port": String(server.port),
                               "database": configuration.databasePath])
        return Service(server: server, services: services, blocking: blocking)
    }

    /// Stops accepting, lets in-flight requests finish within the grace period, then closes the
    /// workers and the database cleanly.
    public func stop() {
        let grace = services.configuration.shutdownGrace
        server.shutdown(gracePeriod: grace)
        blocking.shutdown()
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
