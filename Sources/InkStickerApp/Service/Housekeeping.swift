import Dispatch
import Locking
import Store

/// Deletes idempotency records past their lifetime, at start and then every `interval`, in
/// short writes of `batch` rows: nothing else deletes them, and the table would only grow. On
/// PostgreSQL every node does it; concurrent deletes of the same rows are harmless.
final class Housekeeping: Sendable {
    static let interval: DispatchTimeInterval = .seconds(600)
    static let batch = 1_000

    private let stopped: DispatchSemaphore
    private let thread: JoinableThread

    init(database: Database, log: AppLog, interval: DispatchTimeInterval = Housekeeping.interval) throws(JoinableThread.StartError) {
        let stopped = DispatchSemaphore(value: 0)
        self.stopped = stopped
        thread = try JoinableThread(name: "housekeeping") {
            repeat {
                Self.purgeExpiredIdempotencyRecords(database, log: log)
            } while stopped.wait(timeout: .now() + interval) == .timedOut
        }
    }

    /// Deletes every expired record, a batch per write transaction; how many went.
    @discardableResult
    static func purgeExpiredIdempotencyRecords(_ database: Database, log: AppLog, now: Int64 = Timestamp.now()) -> Int {
        var total = 0
        do {
            while true {
                let deleted = try database.write { try $0.purgeExpiredIdempotencyRecords(now: now, limit: batch) }
                total += deleted
                if deleted < batch { break }
            }
        } catch {
            log.warning("deleting expired idempotency records failed", ["error": "\(error)"])
        }
        if total > 0 { log.info("deleted expired idempotency records", ["count": String(total)]) }
        return total
    }

    /// Ends the thread (at once, even mid-wait) and waits for it.
    func stop() {
        stopped.signal()
        thread.join()
    }
}
