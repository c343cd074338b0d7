/// What a handler decided about a request from its head alone.
public struct HTTPAdmission: Sendable {
    /// The largest body accepted; nil means the server's default.
    public var bodyLimit: Int?
    /// The handler's own result (e.g. its route match), returned with the request.
    public var context: (any Sendable)?

    public init(bodyLimit: Int? = nil, context: (any Sendable)? = nil) {
        self.bodyLimit = bodyLimit
        self.context = context
    }
}
