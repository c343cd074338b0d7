import Foundation
import Ink
import OCR

/// A small, fast, seedable generator (SplitMix64), so a render is reproducible from its seed on
/// any platform (the system generator is not seedable).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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

    /// The strokes and rendering to use for one copy.
    func apply(to strokes: [Stroke], options: RecognitionOptions,
               using rng: inout SplitMix64) -> (strokes: [Stroke], variant: RenderVariant, plain: Bool) {
        if Double.random(in: 0..<1, using: &rng) < plainFraction {
            return (strokes, options.render, true)
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
        guard let box = strokes.bounds else { return (strokes, variant, false) }
        let centre = box.center
        // Shear x by the height above the centre (y down: ink above leans right for a positive
        // slant), then rotate about the centre.
        let transform = AffineTransform(translationX: -centre.x, y: -centre.y)
            .concatenating(AffineTransform(shearX: -tan(slant)))
            .concatenating(AffineTransform(rotation: rotation))
            .concatenating(AffineTransform(translationX: centre.x, y: centre.y))
        return (strokes.map { $0.applying(transform) }, variant, false)
    }
}
