/// One client connection's state. Owned and touched only by its event loop's thread.
final class Connection {
    /// Where the connection is in its request/response cycle; each phase has its own deadline.
    enum Phase {
        /// Between requests: waiting for the first byte (keep-alive idle timeout).
        case idle
        /// Some bytes of a head arrived (header timeout).
        case readingHead
        /// The head is parsed, the body is arriving (body timeout).
        case readingBody
        /// The handler has the request; no timeout here (handlers keep their own deadlines).
        case handling
        /// A streaming response is being written, framed so.
        case streaming(HTTPBodyStream, BodyFraming)
        /// A final response is queued; the connection closes when it is written.
        case closing
        /// The final response is written and the write side shut down; what the client still
        /// sends is read and thrown away until it stops, then the connection closes.
        case lingering
    }

    let id: UInt64
    let fd: Int32
    let remoteAddress: String
    var parser: HTTPRequestParser
    var phase: Phase = .idle
    var input: [UInt8] = []
    var inputStart = 0
    var output: [UInt8] = []
    var outputStart = 0
    var head: HTTPRequestHead?
    var sequence: UInt64 = 0
    var requestID = ""
    var keepAlive = true
    /// Deadline of the current phase, monotonic nanoseconds.
    var deadline: UInt64
    /// When the current request's first byte arrived (the start of the loop's turn that read it).
    var requestStart: UInt64 = 0
    /// When a client that stopped reading its answers is dropped.
    var writeDeadline: UInt64 = 0
    var wantsWrite = false
    var readPaused = false
    /// The client shut down its sending side (`EPOLLRDHUP` seen): no longer watched for, since
    /// the event stays set. What it sent before may still be unread while reading is paused.
    var hangupSeen = false
    /// Everything the client sent has been read, up to its end: it half-closed, or closed. Its
    /// buffered requests are still answered, then the connection closes (a half-close is not
    /// an abort: the answers to requests already sent are owed).
    var inputEnded = false
    var processing = false
    /// Whether the connection has buffered requests left after its turn and waits in the
    /// loop's ready list for the next one.
    var deferred = false
    var closed = false
    /// Whether the final response may leave request bytes unread (an early error): then the
    /// connection lingers after it instead of closing at once.
    var lingersOnClose = false
    /// Bytes discarded while lingering, and when lingering must end at the latest.
    var lingeredBytes = 0
    var lingerEnd: UInt64 = 0

    init(id: UInt64, fd: Int32, remoteAddress: String, limits: HTTPParserLimits, deadline: UInt64,
         admit: @escaping @Sendable (HTTPRequestHead) -> HTTPAdmission) {
        self.id = id
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.parser = HTTPRequestParser(limits: limits, admit: admit)
        self.deadline = deadline
    }

    var bufferedInput: Int { input.count - inputStart }
    var pendingOutput: Int { output.count - outputStart }

    var isHandling: Bool {
        if case .handling = phase { return true }
        return false
    }

    var isStreaming: Bool {
        if case .streaming = phase { return true }
        return false
    }

    /// Drops consumed input so the buffer does not grow with a long keep-alive session.
    func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 64 * 1024)
            inputStart = 0
        } else if inputStart > 32 * 1024 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }
}
