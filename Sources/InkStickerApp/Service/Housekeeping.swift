import Dispatch
import Locking
import Store

/// What housekeeping deleted since start, and the rounds a database error stopped (`/metrics`).
final class HousekeepingCounters: Sendable {
    struct Counts: Sendable, Equatable {
        var idempotencyRecords = 0
        var events = 0
        var failures = 0
    }
    private let counts = Lock(Counts())

    var current: Counts { counts.withLock { $0 } }

    func add(_ change: (inout Counts) -> Void) { counts.withLock { change(&$0) } }
}

/// Deletes what nothing else deletes, at start and then every `interval`, in short writes of
/// `batch` rows: idempotency records and gesture undos past their lifetime, and board events older than the
/// retention (`--keep-events-days`). On PostgreSQL every node does it; concurrent deletes of the
/// same rows are harmless.
final class Housekeeping: Sendable {
    static let batch = 1_000

    private let stopped: DispatchSemaphore
    private let stopping: Lock<Bool>
    private let thread: JoinableThread

    /// - Parameter eventRetentionMs: how long events are kept, in milliseconds; nil keeps them forever.
    init(database: Database, log: AppLog, counters: HousekeepingCounters, eventRetentionMs: Int64?,
         interval: DispatchTimeInterval) throws(JoinableThread.StartError) {
        let stopped = DispatchSemaphore(value: 0)
        let stopping = Lock(false)
        self.stopped = stopped
        self.stopping = stopping
        thread = try JoinableThread(name: "housekeeping") {
            // A long round (a large backlog after an upgrade) ends between two writes when the service stops.
            let stop = { stopping.withLock { $0 } }
            repeat {
                Self.purgeExpiredIdempotencyRecords(database, log: log, counters: counters, until: stop)
                Self.purgeExpiredUndos(database, log: log, counters: counters, until: stop)
                if let eventRetentionMs {
                    Self.purgeOldEvents(database, olderThanMs: eventRetentionMs, log: log, counters: counters, until: stop)
                }
            } while stopped.wait(timeout: .now() + interval) == .timedOut
        }
    }

    /// Deletes every expired record, a batch per write transaction; how many went.
    @discardableResult
    static func purgeExpiredIdempotencyRecords(_ database: Database, log: AppLog, counters: HousekeepingCounters? = nil,
                                               now: Int64 = Timestamp.now(), until stop: () -> Bool = { false }) -> Int {
        var total = 0
        do {
            while !stop() {
                let deleted = try database.write { try $0.purgeExpiredIdempotencyRecords(now: now, limit: batch) }
                total += deleted
                counters?.add { $0.idempotencyRecords += deleted }
                if deleted < batch { break }
            }
        } catch {
            counters?.add { $0.failures += 1 }
            log.warning("deleting expired idempotency records failed", ["error": "\(error)"])
        }
        if total > 0 { log.info("deleted expired idempotency records", ["count": String(total)]) }
        return total
    }

    /// Deletes every gesture undo past its lifetime, a batch per write transaction; how many went.
    @discardableResult
    static func purgeExpiredUndos(_ database: Database, log: AppLog, counters: HousekeepingCounters? = nil,
                                  now: Int64 = Timestamp.now(), until stop: () -> Bool = { false }) -> Int {
        var total = 0
        do {
            while !stop() {
                let deleted = try database.write { try $0.purgeExpiredUndos(now: now, limit: batch) }
                total += deleted
                if deleted < batch { break }
            }
        } catch {
            counters?.add { $0.failures += 1 }
            log.warning("deleting expired gesture undos failed", ["error": "\(error)"])
        }
        if total > 0 { log.info("deleted expired gesture undos", ["count": String(total)]) }
        return total
    }

    /// Deletes every event created more than `olderThanMs` before `now`, one board and at most a
    /// batch per write transaction; how many went. Each board records the newest id it lost, so
    /// its streams know what they missed (`EventStreams`).
    @discardableResult
    static func purgeOldEvents(_ database: Database, olderThanMs: Int64, log: AppLog, counters: HousekeepingCounters? = nil,
                               now: Int64 = Timestamp.now(), until stop: () -> Bool = { false }) -> Int {
        let (cutoff, overflow) = now.subtractingReportingOverflow(olderThanMs)
        guard !overflow else { return 0 }
        var total = 0
        var boards = Set<String>()
        do {
            // A pass that deletes nothing (another node was quicker) ends this round; the next one retries.
            while !stop(), let purged = try database.write({ try $0.purgeEvents(createdBefore: cutoff, limit: batch) }),
                  purged.count > 0 {
                total += purged.count
                boards.insert(purged.boardId)
                counters?.add { $0.events += purged.count }
            }
        } catch {
            counters?.add { $0.failures += 1 }
            log.warning("deleting old events failed", ["error": "\(error)"])
        }
        if total > 0 { log.info("deleted old events", ["count": String(total), "boards": String(boards.count)]) }
        return total
    }

    /// Ends the thread (at once, even mid-wait) and waits for it.
    func stop() {
        stopping.withLock { $0 = true }
        stopped.signal()
        thread.join()
    }
}
