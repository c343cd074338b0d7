// Stickers as absolutely positioned elements at their frames (board units are CSS pixels).
//
// The server measures every frame with the sticker's real font (DejaVu) around a fixed centre; the
// page draws the text in the same family when the system has it, and scales a line down in the rare
// case another font would overflow the frame.

/** Vertical and horizontal text insets of a field, as the server lays fields out (StickerGeometry). */
const FIELD_INSET = { x: 7, y: 5 };

const FAMILIES = {
  sans: { family: '"DejaVu Sans", "Bitstream Vera Sans", NanumGothic, "Nanum Gothic", Verdana, sans-serif', weight: 400 },
  'sans-bold': { family: '"DejaVu Sans", "Bitstream Vera Sans", NanumGothic, "Nanum Gothic", Verdana, sans-serif', weight: 700 },
  serif: { family: '"DejaVu Serif", "Bitstream Vera Serif", NanumMyeongjo, "Nanum Myeongjo", Georgia, serif', weight: 400 },
  'serif-bold': { family: '"DejaVu Serif", "Bitstream Vera Serif", NanumMyeongjo, "Nanum Myeongjo", Georgia, serif', weight: 700 },
  mono: { family: '"DejaVu Sans Mono", "Bitstream Vera Sans Mono", NanumGothicCoding, "Nanum Gothic Coding", Menlo, Consolas, monospace', weight: 400 },
  'mono-bold': { family: '"DejaVu Sans Mono", "Bitstream Vera Sans Mono", NanumGothicCoding, "Nanum Gothic Coding", Menlo, Consolas, monospace', weight: 700 },
};

/** A CSS family stack and weight for an API family name (sans, sans-bold, serif, …). */
export function fontFor(name) {
  if (FAMILIES[name]) return FAMILIES[name];
  const bold = /bold/.test(name || '');
  if (/mono/.test(name || '')) return { family: 'monospace', weight: bold ? 700 : 400 };
  if (/serif/.test(name || '') && !/sans/.test(name || '')) return { family: 'serif', weight: bold ? 700 : 400 };
  return { family: 'sans-serif', weight: bold ? 700 : 400 };
}

/** `#RRGGBBAA` and `#RGB` as CSS understands them (it does both), anything else as a fallback. */
const color = (value, fallback) => (typeof value === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(value) ? value : fallback);

/** The lines the server measured: split on "\n" ("\r\n" counts once), cut at lineLimit. */
export function visibleLines(text, lineLimit) {
  let lines = String(text).replace(/\r\n/g, '\n').split('\n');
  if (lineLimit > 0 && lines.length > lineLimit) lines = lines.slice(0, lineLimit);
  return lines;
}

export class StickerLayer {
  /**
   * @param {HTMLElement} layer the element holding stickers (moved with the view)
   */
  constructor(layer) {
    this.layer = layer;
    this.elements = new Map();
    this.fitQueue = new Set();
    this.fitFrame = 0;
  }

  /** Draws `sticker` showing `text` (the sticker's, or the text being typed). */
  render(sticker, { text = sticker.text, focused = false, selected = false, fresh = false } = {}) {
    let element = this.elements.get(sticker.id);
    if (!element) {
      element = document.createElement('div');
      element.className = 'sticker';
      element.dataset.id = sticker.id;
      const span = document.createElement('span');
      span.className = 'text';
      element.append(span);
      this.layer.append(element);
      this.elements.set(sticker.id, element);
      if (fresh) {
        element.classList.add('appear');
        element.addEventListener('animationend', () => element.classList.remove('appear'), { once: true });
      }
    }
    const span = element.firstElementChild;
    const isField = sticker.state === 'field';
    const style = sticker.style || {};
    const frame = sticker.frame;
    const font = fontFor(sticker.font && sticker.font.family);
    const size = (sticker.font && sticker.font.size) || 28;
    const lines = visibleLines(text, style.lineLimit || 0);
    const inset = isField ? FIELD_INSET : { x: 0, y: 0 };
    // Line height from the frame itself, so it matches the server's font metrics exactly.
    const serverLines = visibleLines(sticker.text, style.lineLimit || 0).length;
    const textHeight = Math.max(0, frame.height - 2 * inset.y);
    const lineHeight = serverLines > 0 && textHeight > 0 ? textHeight / serverLines : size * 1.164 * (style.lineHeight || 1);

    element.classList.toggle('field', isField);
    element.classList.toggle('label', !isField);
    element.classList.toggle('focused', focused);
    element.classList.toggle('selected', selected);
    element.classList.toggle('empty', text.length === 0);
    element.dataset.state = sticker.state;
    element.dataset.version = String(sticker.version);
    element.setAttribute('aria-label', `${isField ? 'Field' : 'Label'}: ${text}`);

    const s = element.style;
    s.left = `${frame.x}px`;
    s.top = `${frame.y}px`;
    s.width = `${frame.width}px`;
    s.height = `${frame.height}px`;
    s.padding = `${inset.y}px ${inset.x}px`;
    element.dataset.room = String(Math.max(0, frame.width - 2 * inset.x));
    s.fontFamily = font.family;
    s.fontWeight = String(font.weight);
    s.fontSize = `${size}px`;
    s.lineHeight = `${lineHeight}px`;
    s.textAlign = ['left', 'center', 'right'].includes(style.alignment) ? style.alignment : 'center';
    s.letterSpacing = style.kerning ? `${style.kerning}px` : '';
    s.color = color(style.fillColor, '#000000');
    const strokeWidth = Number(style.strokeWidth) || 0;
    // The outline is drawn under the fill (paint-order), so it shows strokeWidth outside the glyphs.
    s.webkitTextStroke = !isField && strokeWidth > 0 ? `${strokeWidth * 2}px ${color(style.strokeColor, '#FFFFFF')}` : '';

    span.textContent = lines.join('\n');
    // CSS letter-spacing also follows the last character; the server counts only the gaps between them.
    span.style.marginRight = style.kerning ? `${-style.kerning}px` : '';
    this.queueFit(sticker.id);
    return element;
  }

  remove(id) {
    const element = this.elements.get(id);
    if (!element) return;
    this.elements.delete(id);
    element.remove();
  }

  clear() {
    for (const element of this.elements.values()) element.remove();
    this.elements.clear();
  }

  element(id) {
    return this.elements.get(id) || null;
  }

  /** Scales a sticker's text down when the local font is wider than the one the frame was measured with. */
  queueFit(id) {
    this.fitQueue.add(id);
    if (this.fitFrame) return;
    this.fitFrame = requestAnimationFrame(() => {
      this.fitFrame = 0;
      const ids = [...this.fitQueue];
      this.fitQueue.clear();
      const measured = [];
      for (const each of ids) {
        const element = this.elements.get(each);
        if (!element) continue;
        const span = element.firstElementChild;
        span.style.transform = '';
        measured.push([element, span]);
      }
      // Read every size first, then write: one layout for the whole batch.
      // Against the frame's text width (the element may still be moving towards it); the span's width
      // includes the letter-spacing after its last character, which the frame leaves out.
      const sizes = measured.map(([element, span]) => [
        Number(element.dataset.room),
        span.offsetWidth - Math.max(0, parseFloat(element.style.letterSpacing) || 0),
      ]);
      measured.forEach(([element, span], index) => {
        const [room, width] = sizes[index];
        const scale = width > room + 1 && room > 0 ? room / width : 1;
        span.style.transform = scale < 1 ? `scaleX(${scale})` : '';
        element.classList.toggle('squeezed', scale < 1);
      });
    });
  }
}
