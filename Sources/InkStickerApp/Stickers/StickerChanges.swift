import Foundation
import JSONKit
import Store

/// Writes that change stickers, each with the event that records it. Every change is planned
/// outside the write transaction (the sticker read in a read transaction, the change applied,
/// the frame laid out, the event's JSON built); the write transaction then only runs SQL, at the
/// version the plan read. When another write got there first, the plan is made again.
struct StickerChanges: Sendable {
    let services: AppServices

    /// How often a change is planned again when the sticker changed before it was written.
    static let maxAttempts = 8

    /// One planned row change with its event.
    struct Plan: Sendable {
        enum Operation: Sendable {
            case update(StickerRecord, expectedVersion: Int64)
            case delete(StickerRecord)
        }

        let operation: Operation
        let event: EventRecord.Kind
        let payload: String

        static func update(_ next: StickerRecord, from current: StickerRecord, event: EventRecord.Kind) -> Plan {
            var stored = next
            stored.version = current.version + 1
            return Plan(operation: .update(stored, expectedVersion: current.version), event: event,
                        payload: JSONWriter().string(StickerJSON.sticker(stored)))
        }

        static func delete(_ sticker: StickerRecord) -> Plan {
            Plan(operation: .delete(sticker), event: .deleted, payload: JSONWriter().string(StickerJSON.sticker(sticker)))
        }

        /// Only SQL: the row change at the planned version, then its event.
        func apply(_ tx: WriteTransaction, now: Int64) throws {
            switch operation {
            case .update(let sticker, let expected):
                try tx.updateSticker(sticker, expectedVersion: expected)
                try tx.appendEvent(boardId: sticker.boardId, stickerId: sticker.id, type: event, version: sticker.version,
                                   payload: payload, createdAt: now)
            case .delete(let sticker):
                // Gone already (a concurrent delete): plan again, which answers 404 or leaves it out.
                guard try tx.deleteSticker(id: sticker.id, boardId: sticker.boardId, expectedVersion: sticker.version) else {
                    throw Stale()
                }
                try tx.appendEvent(boardId: sticker.boardId, stickerId: sticker.id, type: event, version: sticker.version,
                                   payload: payload, createdAt: now)
            }
        }
    }

    /// A plan whose sticker changed or went away before it was written.
    struct Stale: Error {}

    /// Plans with `plan` and writes what it returns, again from a fresh read when another write
    /// changed or deleted a sticker in between, or when `check` (run first in the write
    /// transaction) finds that what the plan read has changed (it throws `Stale`).
    func write<Result>(check: ((WriteTransaction) throws -> Void)? = nil,
                       _ plan: () throws -> (plans: [Plan], result: Result)) throws -> Result {
        for attempt in 1...Self.maxAttempts {
            if attempt > 1 {
                // Writers racing for one sticker (several clients, or several nodes) spread out
                // instead of colliding again: a random wait of up to 1, 2, 4, … 64 ms.
                Thread.sleep(forTimeInterval: Double.random(in: 0...Double(1 << min(attempt - 2, 6))) / 1_000)
            }
            let (plans, result) = try plan()
            if plans.isEmpty { return result }
            do {
                let now = Timestamp.now()
                try services.database.write { tx in
                    try check?(tx)
                    for plan in plans { try plan.apply(tx, now: now) }
                }
                services.events.notify(boardId: plans[0].sticker.boardId)
                return result
            } catch let error where Self.isStale(error) {
                continue
            }
        }
        throw APIError(.serviceUnavailable, "the sticker kept changing while this change was stored; retry",
                       headers: [("Retry-After", "1")])
    }

    /// Whether a write failed because its plan is out of date (plan again) rather than for good.
    static func isStale(_ error: any Error) -> Bool {
        switch error {
        case is Stale, StoreError.versionConflict, StoreError.notFound(.sticker, _): true
        default: false
        }
    }

    /// Loads the board's sticker (after authorising), checks `If-Match`, applies `change`, re-fits the
    /// frame around the same centre and stores the result with an `updated` event. Returns the
    /// sticker unchanged, without a new version, when `change` altered nothing.
    func update(_ context: RequestContext, change: (inout StickerRecord) throws -> Void) throws -> StickerRecord {
        try write {
            let current = try read(context)
            var next = current
            try change(&next)
            try services.layout.fit(&next)
            // `String ==` is canonical equivalence: "é" written as e + U+0301 over U+00E9 is a change.
            if next == current, next.text.unicodeScalars.elementsEqual(current.text.unicodeScalars) { return ([], current) }
            next.updatedAt = Timestamp.now()
            let plan = Plan.update(next, from: current, event: .updated)
            return ([plan], plan.sticker)
        }
    }

    /// Ends editing of one field: a label with the same centre and a fitted frame, or, when its text
    /// is empty or only whitespace, no sticker at all (like a text field that ends empty).
    enum CommitOutcome { case committed(StickerRecord), deleted, alreadyLabel(StickerRecord) }

    func commit(_ context: RequestContext) throws -> CommitOutcome {
        try write {
            let sticker = try read(context)
            let (plan, outcome) = try commitPlan(sticker, now: Timestamp.now())
            return (plan.map { [$0] } ?? [], outcome)
        }
    }

    /// Commits every field of the board in one transaction; how many became labels and how many were deleted.
    func endEditing(_ context: RequestContext) throws -> (committed: Int, deleted: Int) {
        var planned: (boardId: String, fields: Set<String>)?
        // A field made after the plan read the board's fields would stay a field although editing
        // ended after it: plan again.
        let sameFields = { (tx: WriteTransaction) throws in
            guard let planned, Set(try tx.fields(boardId: planned.boardId).map(\.id)) == planned.fields else { throw Stale() }
        }
        return try write(check: sameFields) {
            let (boardId, fields) = try services.database.read { tx in
                let boardId = try BoardAccess.authorize(context, in: tx).id
                return (boardId, try tx.fields(boardId: boardId))
            }
            planned = (boardId, Set(fields.map(\.id)))
            let now = Timestamp.now()
            var plans: [Plan] = []
            var committed = 0, deleted = 0
            for field in fields {
                let (plan, outcome) = try commitPlan(field, now: now)
                if let plan { plans.append(plan) }
                switch outcome {
                case .committed: committed += 1
                case .deleted: deleted += 1
                case .alreadyLabel: break
                }
            }
            return (plans, (committed, deleted))
        }
    }

    /// Deletes the sticker named in the path (after authorising and `If-Match`); its board's id.
    func delete(_ context: RequestContext) throws -> String {
        try write {
            let sticker = try read(context)
            return ([Plan.delete(sticker)], sticker.boardId)
        }
    }

    private func commitPlan(_ sticker: StickerRecord, now: Int64) throws -> (Plan?, CommitOutcome) {
        if sticker.state == .label { return (nil, .alreadyLabel(sticker)) }
        if sticker.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return (Plan.delete(sticker), .deleted)
        }
        var label = sticker
        label.state = .label
        label.committedAt = now
        label.updatedAt = now
        try services.layout.fit(&label)
        let plan = Plan.update(label, from: sticker, event: .committed)
        return (plan, .committed(plan.sticker))
    }

    /// The sticker named in the path, read after its board's token is checked, with `If-Match` checked against it.
    private func read(_ context: RequestContext) throws -> StickerRecord {
        let sticker = try services.database.read { tx in
            try Self.load(context, board: try BoardAccess.authorize(context, in: tx), tx)
        }
        try EntityTag.checkIfMatch(context, current: sticker)
        return sticker
    }

    /// The sticker named in the path, on this board, or 404.
    static func load(_ context: RequestContext, board: BoardRecord, _ tx: ReadTransaction) throws -> StickerRecord {
        let id = try context.parameter("stickerId")
        guard ResourceID.isPlausible(id), let sticker = try tx.sticker(id: id, boardId: board.id) else {
            throw APIError.notFound("sticker")
        }
        return sticker
    }
}

extension StickerChanges.Plan {
    var sticker: StickerRecord {
        switch operation {
        case .update(let sticker, _), .delete(let sticker): sticker
        }
    }
}
