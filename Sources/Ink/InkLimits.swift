/// Bounds on ink accepted from clients, checked by `InkDecoder` before any other work.
///
/// Size limits (`maxStrokes`, `maxPointsPerStroke`, `maxTotalPoints`) are "too much" and map to
/// HTTP 413; the value rules (`maxCoordinateMagnitude`, times, pressures) are "invalid" and map
/// to 422. The defaults fit a whiteboard note comfortably: a dense handwritten paragraph is a
/// few hundred strokes and some tens of thousands of points.
public struct InkLimits: Sendable, Equatable {
    /// Most strokes in one ink. Default 1,000.
    public var maxStrokes: Int
    /// Most points in one stroke. Default 10,000.
    public var maxPointsPerStroke: Int
    /// Most points over all strokes. Default 100,000.
    public var maxTotalPoints: Int
    /// Largest allowed |x| or |y|. Real tablets report tens of thousands of units; the bound
    /// keeps later arithmetic (squares of distances, scales) far from overflow. Default 1e7.
    public var maxCoordinateMagnitude: Double
    /// Most violations reported for one document; the first ones are the useful ones and an
    /// error body should stay small. Default 20.
    public var maxReportedViolations: Int

    /// Limits with the documented defaults, each overridable.
    public init(
        maxStrokes: Int = 1_000,
        maxPointsPerStroke: Int = 10_000,
        maxTotalPoints: Int = 100_000,
        maxCoordinateMagnitude: Double = 1e7,
        maxReportedViolations: Int = 20
    ) {
        self.maxStrokes = maxStrokes
        self.maxPointsPerStroke = maxPointsPerStroke
        self.maxTotalPoints = maxTotalPoints
        self.maxCoordinateMagnitude = maxCoordinateMagnitude
        self.maxReportedViolations = maxReportedViolations
    }
}
