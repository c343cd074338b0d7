// Keyboard editing of a field: keys become key-input operations (insertText, deleteBackward) that are
// shown at once and sent in small batches, one request at a time per field, in typing order.

const FLUSH_IDLE_MS = 60; // send once typing pauses this long…
const FLUSH_MAX_MS = 200; // …or once the oldest waiting key is this old
const SENTINEL = ' '; // keeps something to delete, so phone keyboards report Backspace

const segmenter = typeof Intl !== 'undefined' && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

const graphemes = (text) => (segmenter ? Array.from(segmenter.segment(text), (part) => part.segment) : Array.from(text));

/** Text without its last `count` grapheme clusters, as the server deletes them. */
export function dropLast(text, count) {
  const parts = graphemes(text);
  return parts.slice(0, Math.max(0, parts.length - count)).join('');
}

/** Whether a character may be typed into a field of `charset`, as the server's typing rule says. */
export function allowsTyping(charset, character) {
  switch (charset) {
    case 'digits':
      return /^[0-9]$/.test(character);
    case 'number':
      return /^[0-9.,\-+/: ]$/.test(character);
    default:
      return character === '\n' || !/\p{Cc}/u.test(character);
  }
}

/**
 * The text after key-input operations, as the server computes it: an insertion keeps the longest
 * prefix that fits `maxLength` (counted in grapheme clusters).
 */
export function applyOps(text, ops, maxLength = null) {
  let out = text;
  for (const op of ops) {
    if (op.insertText !== undefined) out = insertFitting(out, op.insertText, maxLength);
    else if (op.deleteBackward !== undefined) out = dropLast(out, op.deleteBackward);
  }
  return out;
}

function insertFitting(text, insertion, maxLength) {
  if (maxLength === null || maxLength === undefined) return text + insertion;
  const parts = graphemes(insertion);
  for (let count = parts.length; count > 0; count -= 1) {
    const candidate = text + parts.slice(0, count).join('');
    if (graphemes(candidate).length <= maxLength) return candidate;
  }
  return text;
}

/** Appends an operation, merging it into the last one of the same kind. */
function push(queue, op) {
  const last = queue[queue.length - 1];
  if (last && op.insertText !== undefined && last.insertText !== undefined) last.insertText += op.insertText;
  else if (last && op.deleteBackward !== undefined && last.deleteBackward !== undefined) last.deleteBackward += op.deleteBackward;
  else queue.push({ ...op });
}

export class KeyInput {
  constructor({ sink, api, sticker, focused, onText, onSticker, onCommit, onEscape, onError }) {
    this.sink = sink;
    this.api = api;
    this.sticker = sticker;
    this.focused = focused;
    this.onText = onText;
    this.onSticker = onSticker;
    this.onCommit = onCommit;
    this.onEscape = onEscape;
    this.onError = onError;
    this.editors = new Map(); // sticker id → {text, queue, inflight, promise, timer, since}

    sink.addEventListener('keydown', (event) => this.handleKey(event, true));
    sink.addEventListener('beforeinput', (event) => this.beforeInput(event));
    sink.addEventListener('compositionend', (event) => {
      if (event.data) this.insert(event.data);
      this.resetSink();
    });
  }

  // MARK: Focus

  focus(frame) {
    this.place(frame);
    this.resetSink();
    if (document.activeElement !== this.sink) this.sink.focus({ preventScroll: true });
  }

  blur() {
    if (document.activeElement === this.sink) this.sink.blur();
  }

  /** Keeps the hidden input at the field, where a phone scrolls to and shows its suggestions. */
  place(frame) {
    this.sink.style.left = `${Math.max(0, frame.x)}px`;
    this.sink.style.top = `${Math.max(0, frame.y + frame.height - 2)}px`;
  }

  resetSink() {
    this.sink.value = SENTINEL;
    this.sink.setSelectionRange(SENTINEL.length, SENTINEL.length);
  }

  // MARK: Keys

  /** A key press on the hidden input (`fromSink`) or, when it lost the focus, on the document. */
  handleKey(event, fromSink = false) {
    if (event.isComposing || event.keyCode === 229) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return; // shortcuts (copy, reload, …) stay the browser's
    const id = this.focused();
    if (!id) return;
    switch (event.key) {
      case 'Enter':
        event.preventDefault();
        if (event.shiftKey) this.insert('\n');
        else this.onCommit(id);
        return;
      case 'Backspace':
        event.preventDefault();
        this.deleteBackward(1);
        return;
      case 'Escape':
        event.preventDefault();
        this.onEscape();
        return;
      default:
        break;
    }
    // Characters typed into the hidden input arrive as beforeinput; elsewhere take them from the key.
    if (!fromSink && [...event.key].length === 1) {
      event.preventDefault();
      this.insert(event.key);
      this.sink.focus({ preventScroll: true });
    }
  }

  beforeInput(event) {
    if (event.isComposing || event.inputType === 'insertCompositionText') return;
    event.preventDefault();
    switch (event.inputType) {
      case 'insertText':
      case 'insertReplacementText':
        this.insert(event.data || (event.dataTransfer && event.dataTransfer.getData('text/plain')) || '');
        break;
      case 'insertFromPaste':
      case 'insertFromDrop':
        this.insert((event.dataTransfer && event.dataTransfer.getData('text/plain')) || event.data || '');
        break;
      case 'insertLineBreak':
      case 'insertParagraph': {
        const id = this.focused();
        if (id) this.onCommit(id);
        break;
      }
      case 'deleteContentBackward':
      case 'deleteWordBackward':
      case 'deleteSoftLineBackward':
      case 'deleteHardLineBackward':
        this.deleteBackward(1);
        break;
      default:
        break;
    }
  }

  /** Types `text`, without the characters the field's charset refuses (the server would refuse the whole batch). */
  insert(text) {
    const id = this.focused();
    const sticker = id && this.sticker(id);
    const typed = sticker ? graphemes(text).filter((character) => allowsTyping(sticker.charset, character)).join('') : text;
    if (typed) this.edit({ insertText: typed });
  }

  deleteBackward(count) {
    this.edit({ deleteBackward: count });
  }

  edit(op) {
    const id = this.focused();
    const sticker = id && this.sticker(id);
    if (!sticker) return;
    let editor = this.editors.get(id);
    if (!editor) {
      editor = { text: sticker.text, queue: [], inflight: null, promise: null, timer: null, since: 0 };
      this.editors.set(id, editor);
    }
    if (!this.busy(editor)) editor.text = sticker.text;
    if (editor.queue.length === 0) editor.since = performance.now();
    push(editor.queue, op);
    editor.text = applyOps(editor.text, [op], sticker.maxLength);
    this.onText(id);
    this.schedule(id);
  }

  // MARK: Sending

  busy(editor) {
    return Boolean(editor && (editor.inflight || editor.queue.length > 0));
  }

  /** What the field shows: the stored text, or the text being typed while keys are on their way. */
  displayText(sticker) {
    const editor = this.editors.get(sticker.id);
    return this.busy(editor) ? editor.text : sticker.text;
  }

  schedule(id) {
    const editor = this.editors.get(id);
    if (!editor || editor.inflight || editor.queue.length === 0) return;
    clearTimeout(editor.timer);
    const age = performance.now() - editor.since;
    editor.timer = setTimeout(() => this.flush(id), Math.max(0, Math.min(FLUSH_IDLE_MS, FLUSH_MAX_MS - age)));
  }

  flush(id) {
    const editor = this.editors.get(id);
    if (!editor || editor.inflight || editor.queue.length === 0) return editor ? editor.promise : null;
    clearTimeout(editor.timer);
    editor.timer = null;
    const ops = editor.queue;
    editor.queue = [];
    editor.inflight = ops;
    editor.promise = this.send(id, editor, ops);
    return editor.promise;
  }

  async send(id, editor, ops) {
    let failure = null;
    try {
      const { body } = await this.api().input(id, ops);
      editor.inflight = null;
      this.onSticker(body);
    } catch (error) {
      editor.inflight = null;
      failure = error;
      // A label or a deleted sticker takes no more keys.
      if (error.status === 404 || error.status === 409) editor.queue = [];
    }
    if (this.editors.get(id) !== editor) return;
    const latest = this.sticker(id);
    editor.text = applyOps(latest ? latest.text : editor.text, editor.queue, latest ? latest.maxLength : null);
    if (failure) this.onError(failure, id);
    this.onText(id);
    if (editor.queue.length > 0) {
      editor.since = performance.now();
      this.schedule(id);
    }
  }

  /** Resolves once every key typed into the field has been answered. */
  async settle(id) {
    for (let round = 0; round < 1000; round += 1) {
      const editor = this.editors.get(id);
      if (!editor) return;
      if (editor.inflight) await editor.promise;
      else if (editor.queue.length > 0) await this.flush(id);
      else return;
    }
  }

  async settleAll() {
    await Promise.all([...this.editors.keys()].map((id) => this.settle(id)));
  }

  forget(id) {
    const editor = this.editors.get(id);
    if (!editor) return;
    clearTimeout(editor.timer);
    this.editors.delete(id);
  }

  reset() {
    for (const id of [...this.editors.keys()]) this.forget(id);
  }
}
