import Foundation
import HTTPServer
import Store

/// `GET /v1/boards/{boardId}/events`: the board's sticker events as Server-Sent Events.
enum EventRoutes {
    static func register(_ router: inout RouterBuilder, _ services: AppServices, _ streams: EventStreams) {
        router.add(.get, "/v1/boards/{boardId}/events", .blocking { context in
            let board = try services.database.read { try BoardAccess.authorize(context, in: $0) }
            // Resume after the last event the client saw: the Last-Event-ID header, or ?after= for clients
            // that cannot set headers; without either, only new events.
            let header = context.headers["last-event-id"]
            let resume = header ?? context.query["after"]
            let after: Int64
            if let resume {
                guard let id = Int64(resume.trimmingCharacters(in: .whitespaces)), id >= 0 else {
                    let pointer = header != nil ? "/header/Last-Event-ID" : "/query/after"
                    throw APIError(.badRequest, "\(header != nil ? "Last-Event-ID" : "after") must be an event id",
                                   violations: [.init(pointer: pointer, detail: "expected a non-negative integer")])
                }
                after = id
            } else {
                after = try services.database.read { try $0.latestEventId(boardId: board.id) }
            }
            return streams.open(boardID: board.id, after: after, services: services)
        })
    }
}
