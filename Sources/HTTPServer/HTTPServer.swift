import CSystem
import Glibc
import Locking

/// An HTTP/1.1 server on non-blocking POSIX sockets and epoll.
///
/// Build it with `start`, which binds, spawns the event-loop threads and returns at once; stop it with
/// `shutdown`, which stops accepting, lets in-flight exchanges finish within a grace period and joins
/// the threads.
public final class HTTPServer: Sendable {
    /// The bound port (useful with port 0).
    public let port: Int
    public let metrics: HTTPMetrics
    public let configuration: HTTPServerConfiguration
    let core: ServerCore
    let loops: [EventLoop]
    let threads: [JoinableThread]

    private init(configuration: HTTPServerConfiguration, core: ServerCore, loops: [EventLoop], port: Int) {
        self.configuration = configuration
        self.core = core
        self.loops = loops
        self.metrics = core.metrics
        self.port = port
        self.threads = loops.map { loop in
            do {
                return try JoinableThread(name: "http-loop-\(loop.index)") { loop.run() }
            } catch {
                preconditionFailure("cannot start an event-loop thread: \(error)")
            }
        }
    }

    /// Binds and starts serving.
    public static func start(configuration: HTTPServerConfiguration, handler: any HTTPHandler,
                             logSink: any LogSink = FileDescriptorLogSink(),
                             metrics: HTTPMetrics? = nil) throws(SocketError) -> HTTPServer {
        _ = csys_raise_nofile_limit()
        let fd = try Socket.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        let port = Socket.localPort(fd)
        let loopCount = max(1, configuration.eventLoops)
        let core = ServerCore(configuration: configuration, handler: handler, metrics: metrics ?? HTTPMetrics(shards: loopCount),
                              logSink: logSink, listenFD: fd)
        var loops: [EventLoop] = []
        do {
            for index in 0..<loopCount { loops.append(try EventLoop(index: index, core: core)) }
        } catch {
            Socket.close(fd)
            throw error
        }
        return HTTPServer(configuration: configuration, core: core, loops: loops, port: port)
    }

    /// Stops accepting, waits up to `gracePeriod` for in-flight requests, then closes everything.
    /// Blocks until the loop threads have ended. Safe to call once from any non-loop thread.
    public func shutdown(gracePeriod: Duration = .seconds(10)) {
        for loop in loops {
            loop.execute { loop.beginDrain(gracePeriod: gracePeriod) }
        }
        for thread in threads { thread.join() }
        Socket.close(core.listenFD)
    }
}


