import Foundation
import Ink
import Store
import TextLayout

/// Draws a board as SVG: labels as outlined text (stroke behind the fill, `paint-order: stroke`),
/// fields as rounded text fields, optionally the ink with round caps and joins.
struct BoardSVG {
    /// How frames are fitted to text: the text is drawn with the same metrics.
    let layout: StickerLayout
    let geometry = StickerGeometry()

    /// CSS font stacks for the closed set of families: the faces frames are measured with, DejaVu
    /// and for the characters it lacks (Hangul) its Nanum fallback, named in that order so that a
    /// viewer draws the text with the metrics its frame was fitted to.
    static func fontStack(_ family: FontFamily) -> (family: String, weight: String) {
        switch family {
        case .sans: ("'DejaVu Sans', 'NanumGothic', sans-serif", "normal")
        case .sansBold: ("'DejaVu Sans', 'NanumGothic', sans-serif", "bold")
        case .serif: ("'DejaVu Serif', 'NanumMyeongjo', serif", "normal")
        case .serifBold: ("'DejaVu Serif', 'NanumMyeongjo', serif", "bold")
        case .mono: ("'DejaVu Sans Mono', 'NanumGothicCoding', monospace", "normal")
        case .monoBold: ("'DejaVu Sans Mono', 'NanumGothicCoding', monospace", "bold")
        }
    }

    func render(_ stickers: [StickerRecord], inks: [String: [[Stroke]]]) -> String {
        var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        func include(_ r: StickerRecord.Rect) {
            let b = bounds ?? (r.x, r.y, r.x + r.width, r.y + r.height)
            bounds = (min(b.minX, r.x), min(b.minY, r.y), max(b.maxX, r.x + r.width), max(b.maxY, r.y + r.height))
        }
        for sticker in stickers {
            // An outline reaches its width outside the glyphs, and so outside the frame.
            let outline = max(0, sticker.style.strokeWidth)
            include(StickerRecord.Rect(x: sticker.frame.x - outline, y: sticker.frame.y - outline,
                                       width: sticker.frame.width + 2 * outline, height: sticker.frame.height + 2 * outline))
            if inks[sticker.id] != nil { include(sticker.inkBounds) }
        }
        let margin = 20.0
        let box = bounds ?? (0, 0, 640, 480)
        let (x, y) = (box.minX - margin, box.minY - margin)
        let (w, h) = (max(1, box.maxX - box.minX + 2 * margin), max(1, box.maxY - box.minY + 2 * margin))
        var out = ##"<?xml version="1.0" encoding="UTF-8"?>"## + "\n"
        out += ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="\##(n(x)) \##(n(y)) \##(n(w)) \##(n(h))" width="\##(n(w))" height="\##(n(h))">"## + "\n"
        out += ##"<rect x="\##(n(x))" y="\##(n(y))" width="\##(n(w))" height="\##(n(h))" fill="#FFFFFF"/>"## + "\n"
        for sticker in stickers {
            for strokes in inks[sticker.id] ?? [] { out += ink(strokes) }
        }
        for sticker in stickers { out += self.sticker(sticker) }
        out += "</svg>\n"
        return out
    }

    private func ink(_ strokes: [Stroke]) -> String {
        var out = ##"<g fill="none" stroke="#8A8F98" stroke-opacity="0.6" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">"##
        for stroke in strokes where stroke.pointCount > 0 {
            var d = "M\(n(stroke.x[0])) \(n(stroke.y[0]))"
            if stroke.pointCount == 1 { d += "l0 0" }
            for i in 1..<max(1, stroke.pointCount) { d += "L\(n(stroke.x[i])) \(n(stroke.y[i]))" }
            out += ##"<path d="\##(d)"/>"##
        }
        return out + "</g>\n"
    }

    private func sticker(_ s: StickerRecord) -> String {
        let family = (try? FontFamily(name: s.fontFamily)) ?? .default
        // The metrics the frame was fitted to: each line's baseline where the layout put it
        // (the glyph box centred in its line box, the line height as clamped there).
        guard let metrics = try? layout.metrics(of: s) else { return "" }
        var lines = s.text.components(separatedBy: "\n")
        if let limit = s.style.lineLimit, limit > 0, lines.count > limit { lines = Array(lines.prefix(limit)) }
        var out = ##"<g id="\##(Self.escape(s.id))" class="\##(s.state.rawValue)">"##
        var textBox = s.frame
        if s.state == .field {
            out += ##"<rect x="\##(n(s.frame.x))" y="\##(n(s.frame.y))" width="\##(n(s.frame.width))" height="\##(n(s.frame.height))" rx="5" ry="5" fill="#FFFFFF" fill-opacity="0.85" stroke="#B8BCC4" stroke-width="1"/>"##
            textBox = StickerRecord.Rect(x: s.frame.x + geometry.horizontalInset, y: s.frame.y + geometry.verticalInset,
                                         width: s.frame.width - 2 * geometry.horizontalInset,
                                         height: s.frame.height - 2 * geometry.verticalInset)
        }
        // SVG's letter-spacing also follows a line's last character, which the frame leaves out
        // (it holds the gaps between characters): an anchor at the middle or the end is moved by
        // the half or the whole of that trailing spacing, so the characters sit where the frame is.
        let tracking = s.style.kerning
        let (anchor, textX): (String, Double) = switch s.style.alignment {
        case .left: ("start", textBox.x)
        case .center: ("middle", textBox.x + textBox.width / 2 + tracking / 2)
        case .right: ("end", textBox.x + textBox.width + tracking)
        }
        let font = Self.fontStack(family)
        var attributes = ##"font-family="\##(font.family)" font-weight="\##(font.weight)" font-size="\##(n(s.fontSize))" text-anchor="\##(anchor)" fill="\##(s.style.fillColor ?? StickerDefaults.fillColor)""##
        if s.style.kerning != 0 { attributes += ##" letter-spacing="\##(n(s.style.kerning))""## }
        if s.style.strokeWidth > 0 {
            // Outlined text: the stroke is painted first, behind the fill, at twice the width so the
            // visible outline outside the glyphs is strokeWidth.
            attributes += ##" stroke="\##(s.style.strokeColor)" stroke-width="\##(n(2 * s.style.strokeWidth))" stroke-linejoin="round" paint-order="stroke""##
        }
        // Spaces as typed: SVG collapses runs of spaces and drops leading ones unless told not
        // to, which would move the text inside the frame that was measured with them. (Not an
        // inline `style`: the picture's own policy, `default-src 'none'`, refuses those.)
        out += "<text xml:space=\"preserve\" \(attributes)>"
        for (i, line) in lines.enumerated() {
            let baseline = textBox.y + metrics.baselineY(line: i)
            out += ##"<tspan x="\##(n(textX))" y="\##(n(baseline))">\##(Self.escape(line))</tspan>"##
        }
        return out + "</text></g>\n"
    }

    /// XML character escaping (and dropping characters XML 1.0 cannot carry).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                let v = scalar.value
                if v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000 {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Numbers with at most two decimals.
    private func n(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
