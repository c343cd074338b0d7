import HTTPServer
import OCR

/// `POST /v1/boards/{boardId}/stickers`: ink is recognised and becomes a field where it was
/// written, or is written into the field under it. The path, step by step:
///
/// 1. authorize (`CreateAuthorization`: token, idempotent replay), 2. decode (`CreateRequest`;
/// ink written into a `digits` or `number` field is read under that charset unless the request
/// names one), 2b. classify (`GesturePlan.make`: a scratch-out or strike-through over a sticker's
/// text is planned, persisted and answered here, without recognition), 3. recognize (an OCR
/// worker), 4. lay out (`StickerPlan.make`: target field, text, frame, JSON), 5. persist
/// (`StickerPlan.persist`: one write transaction of SQL only), 6. answer.
///
/// Steps 1, 2, 2b, 4, 5 and 6 run on the blocking pool, step 3 on an OCR worker.
enum StickerCreateRoute {
    /// How often a plan is made again when its field changed before the write (step 5 → 4).
    static let maxPlans = 4

    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        router.add(.post, "/v1/boards/{boardId}/stickers", bodyLimit: services.configuration.maxInkBodyBytes, .deferred { context, responder in
            try services.admitInk(context)
            services.onBlocking(responder, requestID: context.request.requestID) {
                let idempotency = try Idempotency.of(context)
                let board: String
                switch try CreateAuthorization.check(context, idempotency: idempotency, services) {
                case .replay(let response): return response
                case .proceed(let record): board = record.id
                }
                var decoded = try CreateRequest.decode(context, services)
                if let answer = try gesture(decoded, board: board, idempotency: idempotency, services) { return answer }
                if decoded.recognition.charset == nil, decoded.placement.target != .new {
                    let field = try services.database.read { [decoded] tx in try StickerPlan.target(of: decoded, boardID: board, tx) }
                    if let hint = field.map({ StickerText.rules(of: $0).charset }), hint != .text {
                        decoded.recognition.charset = hint
                    }
                }
                let request = decoded
                try services.recognizer.recognize(request.recognition, deadlineMilliseconds: services.configuration.ocrDeadlineMs) { result in
                    services.onBlocking(responder, requestID: context.request.requestID) {
                        let read: Recognition
                        switch result {
                        case .failure(let error): throw ErrorMapping.ocrError(error)
                        case .success(let value): read = value
                        }
                        return try answer(request, read, board: board, idempotency: idempotency, services)
                    }
                }
                return nil
            }
        })
    }

    /// Step 2b: the answer to a gesture (planned, stored, answered), or nil when the ink is writing.
    /// A plan whose sticker changed before the write is made again from the new text, which may
    /// make the ink writing after all.
    static func gesture(_ request: CreateRequest, board: String, idempotency: Idempotency?,
                        _ services: AppServices) throws -> HTTPResponse? {
        try stored(board: board, what: "the sticker kept changing while this gesture was stored", services) {
            try GesturePlan.make(request, boardID: board, idempotency: idempotency, services)
                .map { plan in { (try plan.persist(idempotency: idempotency, services), plan.response) } }
        }
    }

    /// Steps 4 to 6: lay out, persist (again from the lay-out when the field changed meanwhile), answer.
    static func answer(_ request: CreateRequest, _ read: Recognition, board: String, idempotency: Idempotency?,
                       _ services: AppServices) throws -> HTTPResponse {
        // A writing always has a plan, so there is always an answer.
        guard let response = try stored(board: board, what: "the field kept changing while this writing was stored", services, plan: {
            let plan = try StickerPlan.make(request, read, boardID: board, idempotency: idempotency, services)
            return { (try plan.persist(idempotency: idempotency, services), plan.response) }
        }) else { throw APIError(.internalServerError, "no plan for this writing") }
        return response
    }

    /// Makes a plan (nil: nothing to store) and persists it, again from a new plan while what it
    /// was made from changes under it (at most `maxPlans` times, then 503): the stored plan's
    /// response (after notifying the board's followers), or a concurrent retry's.
    private static func stored(board: String, what: String, _ services: AppServices,
                               plan: () throws -> (() throws -> (StickerPlan.Persisted, HTTPResponse))?) throws -> HTTPResponse? {
        for _ in 0..<maxPlans {
            guard let persist = try plan() else { return nil }
            let (persisted, response) = try persist()
            switch persisted {
            case .replayed(let replay):
                return replay
            case .stored:
                services.events.notify(boardId: board)
                return response
            case .stale:
                continue
            }
        }
        throw APIError(.serviceUnavailable, what + "; retry", headers: [("Retry-After", "1")])
    }
}
