import CSystem
import Glibc

/// A failed system call, with errno and its message captured where it happened.
public struct SocketError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let errno: Int32

    public init(_ operation: String, errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.errno = errno
    }

    public var message: String { String(cString: strerror(errno)) }
    public var description: String { "\(operation) failed: \(message) (errno \(errno))" }
}

/// The few socket operations the server needs, in one place.
enum Socket {
    static func listen(host: String, port: Int, backlog: Int32) throws(SocketError) -> Int32 {
        let fd = csys_listen(host, Int32(port), backlog)
        if fd < 0 { throw SocketError("listen on \(host):\(port)", errno: -fd) }
        return fd
    }

    static func localPort(_ fd: Int32) -> Int { Int(csys_local_port(fd)) }

    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case closed
        case failed(Int32)
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let n = csys_recv(fd, buffer.baseAddress, buffer.count)
        if n > 0 { return .bytes(n) }
        if n == 0 { return .closed }
        let e = Glibc.errno
        return e == EAGAIN || e == EWOULDBLOCK ? .wouldBlock : .failed(e)
    }

    /// Writes what it can; returns bytes written, 0 when the socket would block, nil on error.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        let n = csys_send(fd, bytes.baseAddress, bytes.count)
        if n >= 0 { return n }
        let e = Glibc.errno
        return e == EAGAIN || e == EWOULDBLOCK ? 0 : nil
    }

    /// `a` then `b` in one call; bytes sent (0 when the socket is full), nil on error.
    static func write(_ fd: Int32, _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int? {
        let n = csys_send2(fd, a.baseAddress, a.count, b.baseAddress, b.count)
        if n >= 0 { return n }
        let e = Glibc.errno
        return e == EAGAIN || e == EWOULDBLOCK ? 0 : nil
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Shuts down the sending side: the client reads the response, then end of stream.
    static func shutdownWrite(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }
}

/// Monotonic time in nanoseconds, for deadlines and durations.
enum Clock {
    @inline(__always) static func now() -> UInt64 { csys_monotonic_ns() }
}

extension String {
    /// Decodes a NUL-terminated C character buffer.
    init(cChars buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

/// Process-wide handling of SIGINT and SIGTERM through a waiting thread instead of a handler.
public enum TerminationSignals {
    /// Blocks SIGINT, SIGTERM and SIGPIPE; call before starting any thread so all inherit the mask.
    public static func block() { _ = csys_block_signals() }

    /// Waits for SIGINT or SIGTERM and returns its number.
    public static func wait() -> Int32 { csys_wait_termination_signal() }
}
