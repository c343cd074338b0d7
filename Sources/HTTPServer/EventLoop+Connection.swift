import CSystem

extension EventLoop {
    /// Most bytes buffered from a client while its previous request is being handled; reading pauses beyond it.
    static let maxPipelinedBytes = 64 * 1024
    /// Most response bytes waiting for a client to read them; beyond it the server stops reading (and so
    /// answering) that client until it catches up, or drops it at the write timeout.
    static let maxPendingOutputBytes = 256 * 1024
    /// Reads per readiness event, so one busy connection cannot hold the loop from the others.
    static let maxReadsPerEvent = 4
    /// Requests served from one connection's buffer before the loop turns to its other
    /// connections. Answers made on the loop thread (a 404, `/healthz`) come back at once, so
    /// without a bound a client that pipelined 256 KiB of small requests held its loop for
    /// thousands of them.
    static let maxRequestsPerTurn = 32

    /// Whether reading from this client must wait: its pipelined input (while a request is
    /// handled or waits its turn) or its unread output is over its bound.
    func mustPauseReading(_ connection: Connection) -> Bool {
        ((connection.isHandling || connection.deferred) && connection.bufferedInput >= Self.maxPipelinedBytes)
            || connection.pendingOutput >= Self.maxPendingOutputBytes
    }

    /// The client's socket reported `events`: input, its end, or an error.
    func readable(_ connection: Connection, events: UInt32) {
        switch connection.phase {
        case .lingering, .closing:
            // The final answer is queued or sent: what the client still sends is read and dropped,
            // never buffered.
            discardLingering(connection)
            return
        default:
            break
        }
        if events & (UInt32(CSYS_EPOLLHUP) | UInt32(CSYS_EPOLLERR)) != 0 {
            // Both directions are gone (a reset): no answer can reach the client.
            close(connection)
            return
        }
        if events & UInt32(CSYS_EPOLLRDHUP) != 0, !connection.hangupSeen {
            // An event stream's client that stops sending has gone. Anyone else may be waiting
            // for answers: stop watching for the hang-up (it stays set) and read on to its end.
            if connection.isStreaming {
                close(connection)
                return
            }
            connection.hangupSeen = true
            updateInterest(connection)
        }
        if !mustPauseReading(connection), !connection.inputEnded {
            readLoop: for _ in 0..<Self.maxReadsPerEvent {
                switch Socket.read(connection.fd, into: scratchBuffer) {
                case .bytes(let n):
                    connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratchBuffer[0..<n]))
                    if connection.isStreaming, connection.bufferedInput > Self.maxPipelinedBytes {
                        // Requests behind an event stream wait for its end, which may never come:
                        // more than the pipelining bound of them is not kept. Reading on (rather
                        // than pausing) is what notices the client closing.
                        close(connection)
                        return
                    }
                    if n < scratchBuffer.count || mustPauseReading(connection) { break readLoop }
                case .wouldBlock:
                    break readLoop
                case .closed:
                    if connection.isStreaming {
                        close(connection)
                        return
                    }
                    connection.inputEnded = true
                    updateInterest(connection)
                    break readLoop
                case .failed:
                    close(connection)
                    return
                }
            }
        }
        process(connection)
        updateReadPause(connection)
    }

    /// The client's input has ended and what it sent is answered: close once the answers are written.
    private func closeAfterAnswers(_ connection: Connection) {
        connection.phase = .closing
        flush(connection)
    }

    /// Turns reading off while the connection is over a bound, and back on when it is under.
    func updateReadPause(_ connection: Connection) {
        guard !connection.closed else { return }
        let pause = mustPauseReading(connection)
        if pause != connection.readPaused { setReadPaused(connection, pause) }
    }

    var scratchBuffer: UnsafeMutableRawBufferPointer { scratchStorage }

    /// Parses and dispatches as many buffered requests as the connection's state allows.
    func process(_ connection: Connection) {
        guard !connection.processing, !connection.closed, !connection.deferred else { return }
        connection.processing = true
        defer { connection.processing = false }
        var served = 0
        while !connection.closed {
            switch connection.phase {
            case .handling, .streaming, .closing, .lingering: return
            case .idle, .readingHead, .readingBody: break
            }
            if connection.bufferedInput == 0, case .idle = connection.phase {
                connection.compactInput()
                if connection.inputEnded { closeAfterAnswers(connection) }
                return
            }
            if connection.pendingOutput >= Self.maxPendingOutputBytes {
                // The client is not reading its answers: handle nothing more until it does.
                return
            }
            if served >= Self.maxRequestsPerTurn {
                // The others on this loop go first; the rest in the next turn.
                connection.deferred = true
                ready.append(connection.id)
                return
            }
            let parsed: Result<(consumed: Int, event: HTTPRequestParser.Event), HTTPParseError>
            parsed = connection.input.withUnsafeBytes { raw in
                let unread = UnsafeRawBufferPointer(rebasing: raw[connection.inputStart...])
                return Result { () throws(HTTPParseError) in try connection.parser.parse(unread) }
            }
            let result: (consumed: Int, event: HTTPRequestParser.Event)
            switch parsed {
            case .success(let value): result = value
            case .failure(let error):
                fail(connection, status: error.status, detail: error.detail)
                return
            }
            connection.inputStart += result.consumed
            switch result.event {
            case .needMore:
                if connection.inputEnded {
                    // The rest of this request will never come.
                    closeAfterAnswers(connection)
                    return
                }
                if case .idle = connection.phase, connection.bufferedInput > 0 {
                    connection.phase = .readingHead
                    connection.requestStart = turnStart
                    connection.deadline = turnStart + core.configuration.headerTimeout.nanoseconds
                }
                connection.compactInput()
                return
            case .head(let head):
                if case .idle = connection.phase { connection.requestStart = turnStart }
                connection.head = head
                connection.phase = .readingBody
                connection.deadline = turnStart + core.configuration.bodyTimeout.nanoseconds
                if head.expectsContinue, connection.parser.expectsBody, connection.bufferedInput == 0 {
                    // RFC 9110 §10.1.1: tell the client to go on sending the body.
                    connection.output.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    flush(connection)
                }
            case .body(let body):
                served += 1
                dispatch(connection, body: body)
            }
        }
    }

    private func dispatch(_ connection: Connection, body: [UInt8]) {
        guard let head = connection.head else { return }
        connection.sequence += 1
        connection.phase = .handling
        connection.keepAlive = head.keepAlive && !draining
        connection.requestID = requestIDs.next(clientValue: head.headers["x-request-id"])
        let request = HTTPRequest(head: head, body: body, remoteAddress: connection.remoteAddress,
                                  requestID: connection.requestID, admission: connection.parser.admission)
        let writer = HTTPResponseWriter(loop: self, connectionID: connection.id, sequence: connection.sequence)
        core.handler.handle(request, writer: writer)
    }

    /// Gives each connection whose turn ended with requests left its next turn.
    func serveReady() {
        guard !ready.isEmpty else { return }
        let turn = ready
        ready.removeAll(keepingCapacity: true)
        for id in turn {
            guard let connection = connections[id] else { continue }
            connection.deferred = false
            process(connection)
            updateReadPause(connection)
        }
    }

    /// Answers a protocol error and closes: after a framing error nothing that follows can be trusted.
    func fail(_ connection: Connection, status: HTTPStatus, detail: String) {
        if connection.requestID.isEmpty || connection.head == nil {
            connection.requestID = requestIDs.next(clientValue: nil)
        }
        let response = core.handler.errorResponse(status: status, detail: detail)
        response.serializeHead(into: &connection.output, keepAlive: false, requestID: connection.requestID,
                               date: dates.current(wallMs: turnWallMs), framing: .length(response.contentLength ?? 0))
        if case .bytes(let body) = response.body { connection.output.append(contentsOf: body) }
        record(connection, response: response, bytes: response.contentLength ?? 0)
        connection.phase = .closing
        connection.lingersOnClose = true
        connection.input.removeAll()
        connection.inputStart = 0
        flush(connection)
    }

    /// After an early error response: shut down the write side and read and discard what the
    /// client still sends, within the lingering bounds, so its kernel does not reset the
    /// connection before the client has read the response (RFC 9112 §9.6).
    private func startLingering(_ connection: Connection) {
        let configuration = core.configuration
        guard configuration.lingeringTime.nanoseconds > 0, !draining else {
            close(connection)
            return
        }
        Socket.shutdownWrite(connection.fd)
        let now = Clock.now()
        connection.phase = .lingering
        connection.lingerEnd = now + configuration.lingeringTime.nanoseconds
        connection.deadline = min(connection.lingerEnd, now + configuration.lingeringTimeout.nanoseconds)
        if connection.readPaused { setReadPaused(connection, false) }
        discardLingering(connection)
    }

    /// Reads into the loop's scratch buffer and forgets it: lingering costs no memory per connection.
    func discardLingering(_ connection: Connection) {
        let configuration = core.configuration
        for _ in 0..<Self.maxReadsPerEvent {
            switch Socket.read(connection.fd, into: scratchBuffer) {
            case .bytes(let n):
                connection.lingeredBytes += n
                if connection.lingeredBytes >= configuration.lingeringBytes {
                    close(connection)
                    return
                }
                if case .lingering = connection.phase {
                    connection.deadline = min(connection.lingerEnd, Clock.now() + configuration.lingeringTimeout.nanoseconds)
                }
            case .wouldBlock:
                return
            case .closed:
                if case .closing = connection.phase {
                    // The final answer is still being written: a client that half-closed reads
                    // it to the end. `flush` closes once it is out; nothing more is read.
                    connection.inputEnded = true
                    updateInterest(connection)
                    return
                }
                close(connection)
                return
            case .failed:
                close(connection)
                return
            }
        }
    }

    func record(_ connection: Connection, response: HTTPResponse, bytes: Int) {
        let now = Clock.now()
        let start = connection.requestStart == 0 ? now : connection.requestStart
        let seconds = Double(now &- start) / 1e9
        core.metrics.record(shard: index, route: response.route, status: response.status.code, seconds: seconds)
        let entry = AccessLogEntry(timeMs: turnWallMs, requestID: connection.requestID,
                                   method: connection.head?.method.rawValue ?? "-",
                                   path: connection.head?.path ?? "-",
                                   route: response.route, status: response.status.code, bytes: bytes,
                                   durationMs: seconds * 1000, remoteAddress: connection.remoteAddress)
        entry.appendJSONLine(to: &logBuffer)
        connection.requestStart = 0
        if logBuffer.count > 64 * 1024 { flushLog() }
    }

    // MARK: Writing and closing

    func flush(_ connection: Connection) {
        guard !connection.closed else { return }
        while connection.pendingOutput > 0 {
            let written = connection.output.withUnsafeBytes { raw in
                Socket.write(connection.fd, UnsafeRawBufferPointer(rebasing: raw[connection.outputStart...]))
            }
            guard let n = written else {
                close(connection)
                return
            }
            if n == 0 { break }
            connection.outputStart += n
            // The write timeout is about a client that stopped reading, not one reading slowly.
            if connection.wantsWrite { connection.writeDeadline = Clock.now() + core.configuration.writeTimeout.nanoseconds }
        }
        if connection.pendingOutput == 0 {
            connection.output.removeAll(keepingCapacity: connection.output.capacity <= 256 * 1024)
            connection.outputStart = 0
            if connection.wantsWrite { setWriteInterest(connection, false) }
            if case .closing = connection.phase {
                if connection.lingersOnClose { startLingering(connection) } else { close(connection) }
                return
            }
            if connection.readPaused && !connection.processing {
                // The client caught up: serve what it pipelined meanwhile, and read again.
                process(connection)
                updateReadPause(connection)
            }
        } else {
            if connection.outputStart > Self.maxPendingOutputBytes {
                connection.output.removeFirst(connection.outputStart)
                connection.outputStart = 0
            }
            if !connection.wantsWrite {
                connection.writeDeadline = Clock.now() + core.configuration.writeTimeout.nanoseconds
                setWriteInterest(connection, true)
            }
        }
    }

    private func setWriteInterest(_ connection: Connection, _ on: Bool) {
        connection.wantsWrite = on
        updateInterest(connection)
    }

    func setReadPaused(_ connection: Connection, _ paused: Bool) {
        connection.readPaused = paused
        updateInterest(connection)
    }

    func updateInterest(_ connection: Connection) {
        var events: UInt32 = 0
        if !connection.hangupSeen && !connection.inputEnded { events |= UInt32(CSYS_EPOLLRDHUP) }
        if !connection.readPaused && !connection.inputEnded { events |= UInt32(CSYS_EPOLLIN) }
        if connection.wantsWrite { events |= UInt32(CSYS_EPOLLOUT) }
        _ = csys_epoll_ctl(epfd, Int32(CSYS_EPOLL_CTL_MOD), connection.fd, events, connection.id)
    }

    func close(_ connection: Connection) {
        guard !connection.closed else { return }
        connection.closed = true
        Socket.close(connection.fd)
        connections.removeValue(forKey: connection.id)
        core.metrics.openConnections.wrappingSubtract(1, ordering: .relaxed)
        if case .streaming(let stream, _) = connection.phase { stream.close() }
    }

    /// Enforces each phase's deadline (RFC 9110 §15.5.9: 408 for requests not received in time).
    func sweepTimeouts(now: UInt64) {
        for connection in Array(connections.values) where !connection.closed {
            if connection.pendingOutput > 0, connection.wantsWrite, now > connection.writeDeadline {
                close(connection)
                continue
            }
            switch connection.phase {
            case .idle:
                if now > connection.deadline { close(connection) }
            case .readingHead:
                if now > connection.deadline { fail(connection, status: .requestTimeout, detail: "request head not received in time") }
            case .readingBody:
                if now > connection.deadline { fail(connection, status: .requestTimeout, detail: "request body not received in time") }
            case .lingering:
                if now > connection.deadline { close(connection) }
            case .handling, .streaming, .closing:
                break
            }
        }
    }
}
