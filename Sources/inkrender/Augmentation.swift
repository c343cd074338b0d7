import Foundation
import Ink
import OCR
import ToolSupport

extension SplitMix64 {
    /// A seed from a run seed and a sample's identity (FNV-1a over the id), so one sample's
    /// augmentation does not depend on which other samples are in the file.
    static func seed(_ base: UInt64, id: String, copy: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ base
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash ^ (UInt64(copy) &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// Render-knob variation for training images. Every range stays near what the service draws,
/// so the model sees the service's images plus plausible neighbours of them, never something
/// the service could not produce from some ink.
struct Augmentation {
    /// Share of copies drawn exactly as the service draws them (no jitter at all).
    var plainFraction = 0.3
    /// Share of the jittered copies that start from one of the `quality: best` renderings
    /// instead of the `fast` one.
    var bestRenderFraction = 0.3
    /// Multiplier range for the ink height (24 px in the service).
    var inkHeightScale: ClosedRange<Double> = 0.85...1.25
    /// Multiplier range for the pen width ratio.
    var penWidthScale: ClosedRange<Double> = 0.75...1.4
    /// Range of the padding ratio.
    var paddingRatio: ClosedRange<Double> = 0.15...0.35
    /// Extra slant, degrees (shear about the ink's centre).
    var slantDegrees: ClosedRange<Double> = -12...12
    /// Extra rotation, degrees (the normalizer levels most of it again; the rest is realistic).
    var rotationDegrees: ClosedRange<Double> = -4...4
    /// Horizontal stretch about the centre: writers differ more in letter width than in
    /// anything the render knobs change.
    var widthScale: ClosedRange<Double> = 0.8...1.25
    /// Share of jittered copies bent by a smooth random displacement field (letter shapes of
    /// another hand; the training ink comes from only a few writers).
    var elasticFraction = 0.6
    /// Amplitude of that field as a share of the typical stroke size.
    var elasticAmplitude: ClosedRange<Double> = 0.04...0.12
    /// Share of jittered copies with coordinates snapped to a coarse grid, as a low-resolution
    /// tablet or a small canvas reporting whole pixels delivers them.
    var quantizeFraction = 0.12
    /// Grid steps per typical stroke size for that snapping (fewer = blockier).
    var quantizeSteps: ClosedRange<Double> = 8...16

    /// The strokes and rendering to use for one copy.
    func apply(to strokes: [Stroke], options: RecognitionOptions,
               using rng: inout SplitMix64) -> (strokes: [Stroke], variant: RenderVariant) {
        if Double.random(in: 0..<1, using: &rng) < plainFraction {
            return (strokes, options.render)
        }
        var variant = options.render
        if Double.random(in: 0..<1, using: &rng) < bestRenderFraction, let pick = options.bestRenders.randomElement(using: &rng) {
            variant = pick
        }
        variant.inkHeight *= Double.random(in: inkHeightScale, using: &rng)
        variant.penWidthRatio *= Double.random(in: penWidthScale, using: &rng)
        variant.paddingRatio = Double.random(in: paddingRatio, using: &rng)
        let slant = Double.random(in: slantDegrees, using: &rng) * .pi / 180
        let rotation = Double.random(in: rotationDegrees, using: &rng) * .pi / 180
        guard let box = strokes.bounds else { return (strokes, variant) }
        let centre = box.center
        // Shear x by the height above the centre (y down: ink above leans right for a positive
        // slant), then rotate about the centre.
        let stretch = Double.random(in: widthScale, using: &rng)
        let transform = AffineTransform(translationX: -centre.x, y: -centre.y)
            .concatenating(AffineTransform(scaleX: stretch, y: 1))
            .concatenating(AffineTransform(shearX: -tan(slant)))
            .concatenating(AffineTransform(rotation: rotation))
            .concatenating(AffineTransform(translationX: centre.x, y: centre.y))
        var result = strokes.map { $0.applying(transform) }
        let size = Self.typicalStrokeSize(result)
        if size > 0, Double.random(in: 0..<1, using: &rng) < elasticFraction {
            let field = DisplacementField(size: size, amplitude: Double.random(in: elasticAmplitude, using: &rng), using: &rng)
            result = result.map(field.apply)
        }
        if size > 0, Double.random(in: 0..<1, using: &rng) < quantizeFraction {
            let step = size / Double.random(in: quantizeSteps, using: &rng)
            result = result.map { stroke in
                var snapped = stroke
                snapped.x = stroke.x.map { ($0 / step).rounded() * step }
                snapped.y = stroke.y.map { ($0 / step).rounded() * step }
                return snapped
            }
        }
        return (result, variant)
    }

    /// The median stroke height (strokes flatter than a quarter of their width, such as dashes
    /// and t-bars, left out): about a letter's height, whatever the board units.
    static func typicalStrokeSize(_ strokes: [Stroke]) -> Double {
        let sizes = strokes.compactMap(\.bounds).filter { $0.height * 4 >= $0.width }.map(\.height).sorted()
        return sizes.isEmpty ? 0 : sizes[sizes.count / 2]
    }
}

/// A smooth random displacement of the plane: two sine waves per axis with wavelengths of
/// 2-6 typical stroke sizes, so neighbouring points move together and strokes stay strokes.
struct DisplacementField {
    private struct Wave {
        var kx: Double, ky: Double, phase: Double
        func value(_ x: Double, _ y: Double) -> Double { sin(kx * x + ky * y + phase) }
    }
    private let amplitude: Double
    private let wavesX: [Wave]
    private let wavesY: [Wave]

    init(size: Double, amplitude: Double, using rng: inout SplitMix64) {
        self.amplitude = amplitude * size / 2
        func wave() -> Wave {
            let length = Double.random(in: 2...6, using: &rng) * size
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
            let k = 2 * .pi / length
            return Wave(kx: k * cos(angle), ky: k * sin(angle), phase: Double.random(in: 0..<(2 * .pi), using: &rng))
        }
        wavesX = [wave(), wave()]
        wavesY = [wave(), wave()]
    }

    func apply(_ stroke: Stroke) -> Stroke {
        var moved = stroke
        for index in 0..<stroke.pointCount {
            let px = stroke.x[index], py = stroke.y[index]
            moved.x[index] = px + amplitude * wavesX.reduce(0) { $0 + $1.value(px, py) }
            moved.y[index] = py + amplitude * wavesY.reduce(0) { $0 + $1.value(px, py) }
        }
        return moved
    }
}
