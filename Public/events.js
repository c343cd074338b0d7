// Server-Sent Events read with fetch(), because EventSource cannot send an Authorization header.
// Parses the text/event-stream format (WHATWG HTML §9.2.6) and reconnects with Last-Event-ID.

/** Splits a text/event-stream into events; feed it decoded text as it arrives. */
export class EventStreamParser {
  constructor(onEvent, onRetry = () => {}) {
    this.onEvent = onEvent;
    this.onRetry = onRetry;
    this.buffer = '';
    this.reset();
    this.lastEventID = '';
    this.firstChunk = true;
  }

  reset() {
    this.type = '';
    this.data = [];
  }

  feed(text) {
    if (this.firstChunk && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.firstChunk = false;
    }
    this.buffer += text;
    // Lines end with CRLF, LF or CR; a trailing CR may be the first half of a CRLF, so wait for more.
    for (;;) {
      const match = /\r\n|\n|\r/.exec(this.buffer);
      if (!match) break;
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  line(line) {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return; // a comment, e.g. a heartbeat
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.type = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventID = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry(Number(value));
        break;
      default:
        break;
    }
  }

  dispatch() {
    if (this.data.length === 0) {
      this.reset();
      return;
    }
    const event = { type: this.type || 'message', data: this.data.join('\n'), id: this.lastEventID };
    this.reset();
    this.onEvent(event);
  }
}

/**
 * A live connection to a board's events that reconnects by itself, resuming after the last event seen.
 * `onEvent({type, data, id})` gets every event; `onStatus('live'|'connecting'|'offline', error?)` the state.
 */
export class BoardEvents {
  constructor({ url, token, lastEventID = null, onEvent, onStatus = () => {}, onFatal = () => {} }) {
    this.url = url;
    this.token = token;
    this.lastEventID = lastEventID;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.onFatal = onFatal;
    this.retryMs = 2000;
    this.failures = 0;
    this.controller = null;
    this.stopped = false;
    this.timer = null;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  async connect() {
    if (this.stopped) return;
    this.onStatus('connecting');
    const controller = new AbortController();
    this.controller = controller;
    const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${this.token}` };
    if (this.lastEventID !== null && this.lastEventID !== '') headers['Last-Event-ID'] = String(this.lastEventID);
    try {
      const response = await fetch(this.url, { headers, signal: controller.signal, cache: 'no-store' });
      if (response.status === 401 || response.status === 404) {
        this.onFatal(response.status);
        return;
      }
      const type = response.headers.get('Content-Type') || '';
      if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
        throw new Error(`event stream answered ${response.status}`);
      }
      this.failures = 0;
      this.onStatus('live');
      const parser = new EventStreamParser(
        (event) => {
          // Stopped (by a handler, perhaps mid-chunk): the rest of what was read is not delivered.
          if (this.stopped || controller.signal.aborted) return;
          this.lastEventID = event.id;
          try {
            this.onEvent(event);
          } catch (error) {
            // A failing handler must not tear the stream down; report it like any uncaught error.
            if (typeof reportError === 'function') reportError(error);
            else setTimeout(() => { throw error; });
          }
        },
        (ms) => {
          this.retryMs = ms;
        },
      );
      if (this.lastEventID !== null) parser.lastEventID = String(this.lastEventID);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      this.failures += 1;
    }
    if (this.stopped || controller.signal.aborted) return;
    this.onStatus('offline');
    // The server's retry delay, growing while the server stays away (at most 30 s).
    const delay = Math.min(30000, this.retryMs * 2 ** Math.min(this.failures, 4));
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
