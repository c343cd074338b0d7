#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Ink

@Suite struct BaselineEstimatorTests {
    /// The vote counted plainly: candidates per bin of `binWidth` from the lowest offset, the most
    /// in two adjacent bins.
    private func referenceVote(_ points: [Point], angle: Double, binWidth: Double) -> Int {
        let offsets = points.map { $0.y * cos(angle) - $0.x * sin(angle) }
        let low = offsets.min() ?? 0
        var bins: [Int: Int] = [:]
        for offset in offsets { bins[Int(((offset - low) / binWidth).rounded(.down)), default: 0] += 1 }
        return bins.map { $0.value + (bins[$0.key + 1] ?? 0) }.max() ?? 0
    }

    private func candidates(count: Int, width: Double, seed: UInt64) -> [Point] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { i in Point(x: Double(i) * width / Double(count), y: 40 * next() + (i % 7 == 0 ? 300 : 0)) }
    }

    @Test func theVoteCountsTheSameAtAnyWidth() {
        var bins: [Int] = []
        for (width, seed) in [(600.0, 1 as UInt64), (4_000, 2), (2_000_000, 3), (90_000_000, 4)] {
            let points = candidates(count: 1_500, width: width, seed: seed)
            for degrees in [-15.0, -3, 0, 0.25, 9] {
                let angle = degrees * .pi / 180
                let vote = BaselineEstimator.approximateBandCount(of: points, angle: angle, binWidth: 6, bins: &bins)
                #expect(vote == referenceVote(points, angle: angle, binWidth: 6), "width \(width), \(degrees)°")
            }
        }
    }

    /// A line far wider than it has candidates (one flat stroke of 10,000 points 1,000 units
    /// apart) spans up to 10⁶ bins per angle; it is counted without them. Before, every angle
    /// filled a million bins: seconds of one worker for one request of no size.
    @Test func aVeryWideLineIsNotCountedBinByBin() {
        let points = (0..<2_000).map { Point(x: Double($0) * 5_000, y: $0 % 2 == 0 ? 0 : 10) }
        var bins: [Int] = []
        let vote = BaselineEstimator.approximateBandCount(of: points, angle: 2 * .pi / 180, binWidth: 1.2, bins: &bins)
        #expect(vote == referenceVote(points, angle: 2 * .pi / 180, binWidth: 1.2))
        #expect(bins.count < 100, "\(bins.count) bins")
        let stroke = Stroke(x: (0..<10_000).map { Double($0) * 1_000 }, y: (0..<10_000).map { $0 % 2 == 0 ? 0 : 10 })
        let angle = BaselineEstimator.angle(of: [stroke], letterHeight: 10, maxAngle: 15 * .pi / 180)
        #expect(angle.isFinite && abs(angle) < 0.01)
    }

    /// Strokes 10⁻¹⁴ high spread over 10⁶ units: bin numbers past `Int.max`, which trapped (one
    /// request stopped the server). They share the last bin now.
    @Test func aVanishingLetterHeightOverAWideLineDoesNotTrap() {
        let strokes = (0..<40).map { i in Stroke(x: [Double(i) * 25_000, Double(i) * 25_000 + 1e-14], y: [0, 1e-14]) }
        let angle = BaselineEstimator.angle(of: strokes, letterHeight: 1e-14, maxAngle: 15 * .pi / 180)
        #expect(angle.isFinite)
        var bins: [Int] = []
        let points = strokes.map { Point(x: $0.x[0], y: 0) }
        #expect(BaselineEstimator.approximateBandCount(of: points, angle: 0.1, binWidth: 1e-15, bins: &bins) >= 1)
    }
}
