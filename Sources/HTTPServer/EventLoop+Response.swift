import CSystem

/// Writing a handler's response: a whole body at once, or a stream piece by piece, framed for the
/// request's HTTP version; then the connection's next request, or its close.
extension EventLoop {
    /// Writes the handler's response. Runs on the loop thread.
    func complete(connectionID: UInt64, sequence: UInt64, response: HTTPResponse) {
        guard let connection = connections[connectionID], connection.sequence == sequence,
              connection.isHandling else {
            // The client went away while the request was handled: a stream made for it ends
            // here, or its producer would go on writing into it.
            if case .stream(let stream) = response.body { stream.close() }
            return
        }
        let isHead = connection.head?.method == .head
        // A client whose input ended with this request is told the connection closes after it.
        var keepAlive = connection.keepAlive && !draining && !(connection.inputEnded && connection.bufferedInput == 0)
        let date = dates.current(wallMs: turnWallMs)
        switch response.body {
        case .bytes(let body):
            response.serializeHead(into: &connection.output, keepAlive: keepAlive, requestID: connection.requestID,
                                   date: date, framing: .length(body.count))
            if !isHead && response.status.code != 204 && response.status.code != 304 {
                appendBody(body, to: connection)
            }
            record(connection, response: response, bytes: body.count)
            endExchange(connection, keepAlive: keepAlive)
        case .stream(let stream):
            // A HEAD response has the header fields of the GET response, and no body (RFC 9110
            // §9.3.2): the same framing, which promises no length.
            let framing = BodyFraming.stream(for: connection.head?.version ?? .http1_1)
            // A client whose input has already ended cannot be noticed leaving (it is the end of
            // input that tells a stream's client has gone): it gets the head, and the stream ends.
            if framing == .untilClose || connection.inputEnded { keepAlive = false }
            response.serializeHead(into: &connection.output, keepAlive: keepAlive, requestID: connection.requestID,
                                   date: date, framing: framing)
            record(connection, response: response, bytes: 0)
            if isHead || connection.inputEnded {
                if !isHead { framing.appendEnd(to: &connection.output) }
                stream.close()
                endExchange(connection, keepAlive: keepAlive)
            } else {
                connection.keepAlive = keepAlive
                connection.phase = .streaming(stream, framing)
                let (early, finished) = stream.bind(loop: self, connectionID: connection.id)
                for piece in early { framing.appendPiece(piece, to: &connection.output) }
                if finished { finishStream(connection, stream: stream, framing: framing) }
            }
        }
        flush(connection)
        if !connection.closed, case .idle = connection.phase { process(connection) }
        updateReadPause(connection)
    }

    /// A large body goes out with what is pending in one call, straight from the response's
    /// bytes; only what the socket did not take is copied into the output buffer.
    private func appendBody(_ body: [UInt8], to connection: Connection) {
        guard body.count >= Self.directBodyBytes, !connection.closed, !connection.wantsWrite else {
            connection.output.append(contentsOf: body)
            return
        }
        let pending = connection.pendingOutput
        let written = connection.output.withUnsafeBytes { output in
            body.withUnsafeBytes { Socket.write(connection.fd, UnsafeRawBufferPointer(rebasing: output[connection.outputStart...]), $0) }
        }
        // An error is met again, and handled, by the flush that follows.
        let sent = written ?? 0
        if sent < pending {
            connection.outputStart += sent
            connection.output.append(contentsOf: body)
        } else {
            connection.outputStart += pending
            connection.output.append(contentsOf: body[(sent - pending)...])
        }
    }

    /// Bodies from this size on are written without first being copied behind their head.
    static let directBodyBytes = 16 * 1024

    private func endExchange(_ connection: Connection, keepAlive: Bool) {
        connection.head = nil
        if keepAlive {
            connection.phase = .idle
            connection.deadline = turnStart + core.configuration.keepAliveTimeout.nanoseconds
        } else {
            connection.phase = .closing
        }
    }

    func streamWrite(connectionID: UInt64, stream: HTTPBodyStream, bytes: [UInt8]) {
        stream.written(bytes.count)
        guard let connection = connections[connectionID], case .streaming(let current, let framing) = connection.phase,
              current === stream else { return }
        if connection.pendingOutput > core.configuration.maxStreamBacklogBytes {
            // The client reads slower than we produce: drop it rather than buffer without bound.
            close(connection)
            return
        }
        framing.appendPiece(bytes, to: &connection.output)
        flush(connection)
    }

    func streamFinish(connectionID: UInt64, stream: HTTPBodyStream) {
        guard let connection = connections[connectionID], case .streaming(let current, let framing) = connection.phase,
              current === stream else { return }
        finishStream(connection, stream: stream, framing: framing)
        flush(connection)
        if !connection.closed, case .idle = connection.phase { process(connection) }
    }

    private func finishStream(_ connection: Connection, stream: HTTPBodyStream, framing: BodyFraming) {
        framing.appendEnd(to: &connection.output)
        stream.close()
        endExchange(connection, keepAlive: connection.keepAlive && !draining)
    }
}
