import CSystem
import Glibc
import Locking
import Synchronization

/// State shared by every event loop of one server.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let metrics: HTTPMetrics
    let logSink: any LogSink
    let listenFD: Int32
    /// Pre-rendered answer for connections over the limit: sent without parsing anything.
    let overloadResponse: [UInt8]

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, metrics: HTTPMetrics,
         logSink: any LogSink, listenFD: Int32) {
        self.configuration = configuration
        self.handler = handler
        self.metrics = metrics
        self.logSink = logSink
        self.listenFD = listenFD
        var out: [UInt8] = []
        let response = handler.errorResponse(status: .serviceUnavailable, detail: "too many open connections")
        var withRetry = response
        withRetry.headers.replaceOrAdd(name: "Retry-After", value: "1")
        var dates = HTTPDateCache()
        withRetry.serializeHead(into: &out, keepAlive: false, requestID: "overload", date: dates.current(),
                                framing: .length(withRetry.contentLength ?? 0))
        if case .bytes(let body) = withRetry.body { out.append(contentsOf: body) }
        overloadResponse = out
    }
}

/// One thread running an epoll loop over its connections.
///
/// All connection state is confined to the loop's thread; other threads reach it only through
/// `execute`, which queues a closure and wakes the loop through an eventfd. That confinement is
/// what makes the `@unchecked Sendable` below sound.
final class EventLoop: @unchecked Sendable {
    static let wakeToken: UInt64 = 0
    static let listenToken: UInt64 = 1

    let index: Int
    let core: ServerCore
    let epfd: Int32
    let wakeFD: Int32
    private let inbox = Lock<[@Sendable () -> Void]>([])
    private let threadID = Atomic<UInt>(0)
    private let finished = Atomic<Bool>(false)

    // Loop-thread state.
    var connections: [UInt64: Connection] = [:]
    /// Connections whose turn ended with buffered requests left (`maxRequestsPerTurn`), served
    /// again after the next round of events.
    var ready: [UInt64] = []
    private var nextID: UInt64 = 2
    var draining = false
    var drainDeadline: UInt64 = 0
    private var stopped = false
    var dates = HTTPDateCache()
    /// The clocks read once per turn of the loop, when its events arrived: what the requests of
    /// the turn start, time out and are logged by (one reading per turn, not several per request).
    var turnStart: UInt64 = 0
    var turnWallMs: Int64 = 0
    var requestIDs: RequestIDGenerator
    var logBuffer: [UInt8] = []
    let scratchStorage = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(index: Int, core: ServerCore) throws(SocketError) {
        self.index = index
        self.core = core
        epfd = csys_epoll_create()
        if epfd < 0 { throw SocketError("epoll_create1") }
        wakeFD = csys_eventfd()
        if wakeFD < 0 { throw SocketError("eventfd") }
        requestIDs = RequestIDGenerator(loopIndex: index)
        _ = csys_epoll_ctl(epfd, Int32(CSYS_EPOLL_CTL_ADD), wakeFD, UInt32(CSYS_EPOLLIN), Self.wakeToken)
        let listenEvents = UInt32(CSYS_EPOLLIN) | UInt32(bitPattern: Int32(CSYS_EPOLLEXCLUSIVE))
        if csys_epoll_ctl(epfd, Int32(CSYS_EPOLL_CTL_ADD), core.listenFD, listenEvents, Self.listenToken) != 0 {
            throw SocketError("epoll_ctl(listen)")
        }
    }

    deinit {
        scratchStorage.deallocate()
        Glibc.close(epfd)
        Glibc.close(wakeFD)
    }

    var isCurrentThread: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Runs `task` on the loop's thread soon. Safe from any thread.
    func execute(_ task: @escaping @Sendable () -> Void) {
        let wasEmpty = inbox.withLock { tasks in
            tasks.append(task)
            return tasks.count == 1
        }
        if wasEmpty { _ = csys_eventfd_signal(wakeFD) }
    }

    // MARK: The loop

    func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        let maxEvents = 256
        var datas = [UInt64](repeating: 0, count: maxEvents)
        var masks = [UInt32](repeating: 0, count: maxEvents)
        var nextSweep = Clock.now() + 250_000_000
        while !stopped {
            // Connections with requests left wait only for the events that arrived meanwhile.
            let n = csys_epoll_wait(epfd, &datas, &masks, Int32(maxEvents), ready.isEmpty ? 250 : 0)
            turnStart = Clock.now()
            turnWallMs = csys_wall_ms()
            for i in 0..<max(0, Int(n)) {
                switch datas[i] {
                case Self.wakeToken:
                    _ = csys_eventfd_drain(wakeFD)
                case Self.listenToken:
                    acceptConnections()
                default:
                    guard let connection = connections[datas[i]] else { continue }
                    let mask = masks[i]
                    if mask & UInt32(CSYS_EPOLLOUT) != 0 { flush(connection) }
                    if mask & (UInt32(CSYS_EPOLLIN) | UInt32(CSYS_EPOLLERR) | UInt32(CSYS_EPOLLHUP) | UInt32(CSYS_EPOLLRDHUP)) != 0,
                       !connection.closed {
                        readable(connection, events: mask)
                    }
                }
            }
            runInbox()
            serveReady()
            let now = turnStart
            if now >= nextSweep {
                sweepTimeouts(now: now)
                nextSweep = now + 250_000_000
            }
            flushLog()
            // The drain's deadline is read afresh: it may have been set during this turn.
            if draining && (connections.isEmpty || Clock.now() >= drainDeadline) {
                for connection in Array(connections.values) { close(connection) }
                stopped = true
            }
        }
        runInbox()
        flushLog()
        finished.store(true, ordering: .releasing)
    }

    private func runInbox() {
        while true {
            let tasks = inbox.withLock { tasks in
                let current = tasks
                tasks.removeAll(keepingCapacity: true)
                return current
            }
            if tasks.isEmpty { return }
            for task in tasks { task() }
        }
    }

    func flushLog() {
        guard !logBuffer.isEmpty else { return }
        core.logSink.write(logBuffer)
        logBuffer.removeAll(keepingCapacity: logBuffer.capacity < 1 << 20)
    }

    // MARK: Accepting

    private func acceptConnections() {
        guard !draining else { return }
        let config = core.configuration
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(0)
            let fd = csys_accept4(core.listenFD, &storage, &length)
            if fd < 0 { return }
            let open = core.metrics.openConnections.wrappingAdd(1, ordering: .relaxed).newValue
            if open > config.maxConnections {
                core.metrics.openConnections.wrappingSubtract(1, ordering: .relaxed)
                core.metrics.rejectedConnections.wrappingAdd(1, ordering: .relaxed)
                core.overloadResponse.withUnsafeBytes { _ = Socket.write(fd, $0) }
                Socket.close(fd)
                continue
            }
            _ = csys_set_nodelay(fd)
            var name = [CChar](repeating: 0, count: 64)
            csys_format_address(&storage, &name, 64)
            let id = nextID
            nextID += 1
            let deadline = Clock.now() + min(config.headerTimeout, config.keepAliveTimeout).nanoseconds
            let handler = core.handler
            let connection = Connection(id: id, fd: fd, remoteAddress: String(cChars: name),
                                        limits: config.limits, deadline: deadline,
                                        admit: { handler.admit($0) })
            connections[id] = connection
            let events = UInt32(CSYS_EPOLLIN) | UInt32(CSYS_EPOLLRDHUP)
            if csys_epoll_ctl(epfd, Int32(CSYS_EPOLL_CTL_ADD), fd, events, id) != 0 {
                close(connection)
            }
        }
    }

    /// Stops accepting and closes connections as their exchanges end; forcibly after the grace period.
    func beginDrain(gracePeriod: Duration) {
        draining = true
        drainDeadline = Clock.now() + gracePeriod.nanoseconds
        _ = csys_epoll_ctl(epfd, Int32(CSYS_EPOLL_CTL_DEL), core.listenFD, 0, 0)
        for connection in Array(connections.values) {
            if case .lingering = connection.phase {
                close(connection)  // its answer is delivered; what it still sends is not wanted
            } else if case .idle = connection.phase, connection.bufferedInput == 0, connection.pendingOutput == 0 {
                close(connection)
            } else {
                connection.keepAlive = false
            }
        }
    }
}
