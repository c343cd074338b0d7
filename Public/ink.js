// Ink capture and drawing on a full-window canvas with Pointer Events.
//
// Strokes are kept in board coordinates (CSS pixels plus the view's offset) and drawn as they are
// written, with round caps and joins. After the pen has rested for `pauseMs` the strokes written
// since the last pause go out as one batch, like Scribble; the batch's ink stays until its sticker
// is shown, then fades out.

const TAP_DISTANCE = 6; // CSS px a tap may wander
const TAP_MS = 400;
const FADE_MS = 380;
const SENDING_ALPHA = 0.6; // ink waiting for its sticker
const INK_COLOR = '#1d2b4f';

/** A group of strokes written without a pause. */
class Batch {
  constructor() {
    this.strokes = [];
    this.origin = null; // timeStamp of its first point: `t` counts from here
    this.state = 'writing'; // writing → sending → fading → gone
    this.fadeStart = 0;
  }

  /** The request form: {x, y, t, p?} arrays per stroke. */
  toJSON() {
    return this.strokes.map((stroke) => {
      const out = { x: [], y: [], t: [] };
      if (stroke.pressure) out.p = [];
      for (const point of stroke.points) {
        out.x.push(round2(point.x));
        out.y.push(round2(point.y));
        out.t.push(Math.round(point.t));
        if (stroke.pressure) out.p.push(round2(point.p));
      }
      return out;
    });
  }
}

const round2 = (value) => Math.round(value * 100) / 100;

export class InkSurface {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{
   *   view: {x: number, y: number},
   *   onBatch: (strokes: object[]) => Promise<unknown>,
   *   onTap: (point: {x: number, y: number}) => boolean,
   *   onBlankTap: (point: {x: number, y: number}) => void,
   *   onPan: () => void,
   *   onInkStart: () => void,
   *   onIdle?: () => void,
   *   pauseMs?: number,
   * }} options
   */
  constructor(canvas, { view, onBatch, onTap, onBlankTap, onPan, onInkStart, onIdle = () => {}, pauseMs = 700 }) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    // Translucent ink is drawn opaque here first, then laid on at once: overlapping caps do not darken.
    this.scratch = document.createElement('canvas');
    this.scratchContext = this.scratch.getContext('2d');
    this.view = view;
    this.onBatch = onBatch;
    this.onTap = onTap;
    this.onBlankTap = onBlankTap;
    this.onPan = onPan;
    this.onInkStart = onInkStart;
    this.onIdle = onIdle; // ink on the paper was dropped, not sent: a tap, a cancelled stroke
    this.pauseMs = pauseMs;
    this.batches = [];
    this.current = null;
    this.active = new Map(); // pointerId → {stroke, start, travel, kind}
    this.touches = new Map(); // pointerId → {x, y} of touches down
    this.pan = null; // {pointerIds, lastX, lastY} while panning
    this.timer = null;
    this.frame = 0;
    this.ratio = 1;

    this.resize();
    window.addEventListener('resize', () => this.resize());
    canvas.addEventListener('pointerdown', (event) => this.down(event));
    canvas.addEventListener('pointermove', (event) => this.move(event));
    canvas.addEventListener('pointerup', (event) => this.up(event, false));
    canvas.addEventListener('pointercancel', (event) => this.up(event, true));
    canvas.addEventListener('lostpointercapture', (event) => {
      if (this.active.has(event.pointerId)) this.up(event, true);
    });
    canvas.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    const width = window.innerWidth;
    const height = window.innerHeight;
    this.ratio = ratio;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.scratch.width = this.canvas.width;
    this.scratch.height = this.canvas.height;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.redraw();
  }

  /** True while a pointer is writing or strokes wait for the pause. */
  get busy() {
    return this.active.size > 0 || this.current !== null;
  }

  boardPoint(event) {
    return { x: event.clientX + this.view.x, y: event.clientY + this.view.y };
  }

  down(event) {
    // Keep keyboard focus where it is (a field being typed into) and stop the browser's own gestures.
    event.preventDefault();
    if (event.pointerType === 'mouse' && event.button === 1) {
      this.startPan([event.pointerId], event.clientX, event.clientY, event);
      return;
    }
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (event.pointerType === 'touch') {
      this.touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.touches.size >= 2) {
        // A second finger turns writing into panning: drop the first finger's stroke.
        for (const [id, entry] of this.active) {
          if (entry.kind === 'touch') this.discard(id);
        }
        const ids = [...this.touches.keys()].slice(0, 2);
        const mid = this.midpoint(ids);
        this.startPan(ids, mid.x, mid.y, event);
        return;
      }
    }
    if (this.pan) return;
    clearTimeout(this.timer);
    this.timer = null;
    try {
      this.canvas.setPointerCapture(event.pointerId);
    } catch {
      // The pointer may already be gone; the stroke still works without capture.
    }
    if (!this.current) {
      this.current = new Batch();
      this.current.origin = event.timeStamp;
      this.batches.push(this.current);
    }
    const stroke = { points: [], pressure: event.pointerType === 'pen' };
    this.current.strokes.push(stroke);
    const start = this.boardPoint(event);
    this.active.set(event.pointerId, { stroke, start, startTime: event.timeStamp, travel: 0, kind: event.pointerType });
    this.addPoint(stroke, event);
    this.onInkStart();
    this.schedule();
  }

  move(event) {
    if (this.pan && this.pan.ids.includes(event.pointerId)) {
      this.panMove(event);
      return;
    }
    const entry = this.active.get(event.pointerId);
    if (!entry) return;
    const events = typeof event.getCoalescedEvents === 'function' ? event.getCoalescedEvents() : [];
    for (const each of events.length > 0 ? events : [event]) this.addPoint(entry.stroke, each);
    const last = entry.stroke.points[entry.stroke.points.length - 1];
    entry.travel = Math.max(entry.travel, Math.hypot(last.x - entry.start.x, last.y - entry.start.y));
    this.schedule();
  }

  up(event, cancelled) {
    if (event.pointerType === 'touch') this.touches.delete(event.pointerId);
    if (this.pan && this.pan.ids.includes(event.pointerId)) {
      if (this.touches.size === 0 || event.pointerType !== 'touch') this.pan = null;
      return;
    }
    const entry = this.active.get(event.pointerId);
    if (!entry) return;
    this.active.delete(event.pointerId);
    if (cancelled) {
      this.discard(event.pointerId, entry);
    } else {
      if (event.clientX !== undefined && entry.stroke.points.length > 0) {
        const point = this.boardPoint(event);
        const last = entry.stroke.points[entry.stroke.points.length - 1];
        if (point.x !== last.x || point.y !== last.y) this.addPoint(entry.stroke, event);
      }
      const tap = entry.travel <= TAP_DISTANCE && event.timeStamp - entry.startTime <= TAP_MS;
      entry.stroke.tap = tap ? entry.start : null;
      // A tap with nothing else written: on a sticker it picks the sticker at once; on blank paper it may
      // be the dot of an "i" or "j" written first, so it stays ink until the pause shows nothing followed.
      if (tap && this.current && this.current.strokes.length === 1 && this.active.size === 0 && this.onTap(entry.start)) {
        this.discard(null, entry);
      }
    }
    this.pauseTimer();
  }

  /** Removes a stroke that turned out not to be writing. */
  discard(pointerId, entry = this.active.get(pointerId)) {
    if (pointerId !== null) this.active.delete(pointerId);
    if (!entry || !this.current) return;
    this.current.strokes = this.current.strokes.filter((stroke) => stroke !== entry.stroke);
    if (this.current.strokes.length === 0 && this.active.size === 0) {
      this.batches = this.batches.filter((batch) => batch !== this.current);
      this.current = null;
      this.onIdle();
    }
    this.schedule();
  }

  pauseTimer() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.active.size > 0 || !this.current) return;
    this.timer = setTimeout(() => this.send(), this.pauseMs);
  }

  send() {
    this.timer = null;
    const batch = this.current;
    if (!batch || this.active.size > 0) return;
    this.current = null;
    batch.strokes = batch.strokes.filter((stroke) => stroke.points.length > 0);
    const lone = batch.strokes.length === 1 && batch.strokes[0].tap ? batch.strokes[0].tap : null;
    if (batch.strokes.length === 0 || lone) {
      this.batches = this.batches.filter((each) => each !== batch);
      this.schedule();
      if (lone) this.onBlankTap(lone);
      this.onIdle();
      return;
    }
    batch.state = 'sending';
    this.schedule();
    Promise.resolve(this.onBatch(batch.toJSON()))
      .catch(() => {})
      .finally(() => {
        batch.state = 'fading';
        batch.fadeStart = performance.now();
        this.schedule();
      });
  }

  addPoint(stroke, event) {
    const point = this.boardPoint(event);
    const previous = stroke.points[stroke.points.length - 1];
    const t = Math.max(previous ? previous.t : 0, event.timeStamp - this.current.origin, 0);
    const p = stroke.pressure ? clamp(event.pressure || 0.5, 0.05, 1) : 0.5;
    stroke.points.push({ x: point.x, y: point.y, t, p });
  }

  midpoint(ids) {
    const points = ids.map((id) => this.touches.get(id));
    return {
      x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
      y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
    };
  }

  startPan(ids, x, y, event) {
    this.pan = { ids, lastX: x, lastY: y };
    try {
      this.canvas.setPointerCapture(event.pointerId);
    } catch {
      // not fatal
    }
  }

  panMove(event) {
    let x = event.clientX;
    let y = event.clientY;
    if (event.pointerType === 'touch') {
      this.touches.set(event.pointerId, { x, y });
      ({ x, y } = this.midpoint(this.pan.ids.filter((id) => this.touches.has(id))));
    }
    this.panBy(this.pan.lastX - x, this.pan.lastY - y);
    this.pan.lastX = x;
    this.pan.lastY = y;
  }

  wheel(event) {
    event.preventDefault();
    if (event.ctrlKey) return; // pinch zoom is not supported; keep the page still
    const scale = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? window.innerHeight : 1;
    this.panBy(event.deltaX * scale, event.deltaY * scale);
  }

  panBy(dx, dy) {
    if (dx === 0 && dy === 0) return;
    this.view.x += dx;
    this.view.y += dy;
    this.onPan();
    this.schedule();
  }

  /** Redraws on the next animation frame. */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw();
    });
  }

  redraw() {
    const ctx = this.context;
    const now = performance.now();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    let animating = false;
    for (const batch of this.batches) {
      let alpha = 1;
      if (batch.state === 'sending') alpha = SENDING_ALPHA;
      if (batch.state === 'fading') {
        const progress = (now - batch.fadeStart) / FADE_MS;
        if (progress >= 1) {
          batch.state = 'gone';
          continue;
        }
        alpha = SENDING_ALPHA * (1 - progress) * (1 - progress);
        animating = true;
      }
      if (alpha === 1) {
        this.paint(ctx, batch);
        continue;
      }
      const scratch = this.scratchContext;
      scratch.setTransform(1, 0, 0, 1, 0, 0);
      scratch.clearRect(0, 0, this.scratch.width, this.scratch.height);
      this.paint(scratch, batch);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = alpha;
      ctx.drawImage(this.scratch, 0, 0);
      ctx.globalAlpha = 1;
    }
    this.batches = this.batches.filter((batch) => batch.state !== 'gone');
    if (animating) this.schedule();
  }

  /** Draws a batch's strokes opaque, in board coordinates. */
  paint(ctx, batch) {
    ctx.setTransform(this.ratio, 0, 0, this.ratio, -this.view.x * this.ratio, -this.view.y * this.ratio);
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = INK_COLOR;
    ctx.fillStyle = INK_COLOR;
    for (const stroke of batch.strokes) drawStroke(ctx, stroke);
  }
}

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

/** Width of the pen at pressure `p`: a pen presses 1.6–5.4 px wide; mouse and finger draw 3.2 px. */
const widthAt = (stroke, p) => (stroke.pressure ? 1.2 + 4.2 * p : 3.2);

/** A smooth line through the points (quadratic curves between midpoints), round caps and joins. */
function drawStroke(ctx, stroke) {
  const points = stroke.points;
  if (points.length === 0) return;
  if (points.length === 1) {
    const point = points[0];
    ctx.beginPath();
    ctx.arc(point.x, point.y, widthAt(stroke, point.p) / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  if (!stroke.pressure) {
    ctx.lineWidth = widthAt(stroke, 0.5);
    ctx.beginPath();
    ctx.moveTo(points[0].x, points[0].y);
    for (let i = 1; i < points.length - 1; i += 1) {
      const mid = { x: (points[i].x + points[i + 1].x) / 2, y: (points[i].y + points[i + 1].y) / 2 };
      ctx.quadraticCurveTo(points[i].x, points[i].y, mid.x, mid.y);
    }
    const last = points[points.length - 1];
    ctx.lineTo(last.x, last.y);
    ctx.stroke();
    return;
  }
  // With pressure each piece gets its own width; round caps hide the seams.
  let from = points[0];
  for (let i = 1; i < points.length; i += 1) {
    const to = i < points.length - 1
      ? { x: (points[i].x + points[i + 1].x) / 2, y: (points[i].y + points[i + 1].y) / 2 }
      : points[i];
    ctx.lineWidth = widthAt(stroke, (points[i - 1].p + points[i].p) / 2);
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    ctx.quadraticCurveTo(points[i].x, points[i].y, to.x, to.y);
    ctx.stroke();
    from = to;
  }
}
