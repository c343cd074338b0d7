// A small client for the InkSticker HTTP API: bearer auth, JSON bodies, problem+json errors, ETags.

/** An error answered by the server (RFC 9457 problem details) or a network failure. */
export class APIError extends Error {
  constructor(status, problem, etag = null) {
    super(APIError.describe(status, problem));
    this.status = status;
    this.problem = problem;
    this.etag = etag;
  }

  /** The most useful sentence of a problem: the first field violation, else `detail`, else `title`. */
  static describe(status, problem) {
    if (!problem) return status ? `The server answered ${status}.` : 'The server cannot be reached.';
    const first = Array.isArray(problem.errors) && problem.errors.length > 0 ? problem.errors[0] : null;
    if (first && first.detail) return first.pointer ? `${first.detail} (${first.pointer})` : first.detail;
    return problem.detail || problem.title || `The server answered ${status}.`;
  }
}

/** How often a request is sent again after a status in its `retry` list, waiting what `Retry-After` says (at most this long). */
const RETRIES = 4;
const MAX_RETRY_SECONDS = 30;

/** A fresh `Idempotency-Key`: a request sent again after a lost answer creates nothing twice. */
export function idempotencyKey() {
  if (typeof crypto !== 'undefined' && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The ETag the server gives a sticker of `version` (strong tags of the form "v{version}"). */
export const stickerTag = (sticker) => `"v${sticker.version}"`;

export class BoardAPI {
  /** @param {{id: string, token: string}} board */
  constructor(board) {
    this.board = board;
  }

  get base() {
    return `/v1/boards/${encodeURIComponent(this.board.id)}`;
  }

  /** Creates a board; answers `{id, token, title, createdAt}` (the token is shown only once). */
  static async createBoard(title = '') {
    const { body } = await BoardAPI.fetchJSON('/v1/boards', { method: 'POST', json: { title } });
    return body;
  }

  /** The server's recognition languages: `{languages, default, aliases}`. */
  static async languages() {
    const { body } = await BoardAPI.fetchJSON('/v1/languages');
    return body;
  }

  /**
   * One request. Answers `{status, body, etag}`; throws APIError for 4xx/5xx answers (other than 304)
   * and for network failures.
   */
  static async fetchJSON(path, { method = 'GET', json, headers = {}, token, signal, retry = [] } = {}) {
    const init = { method, headers: { Accept: 'application/json', ...headers }, signal, cache: 'no-store' };
    if (token) init.headers.Authorization = `Bearer ${token}`;
    if (json !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(json);
    }
    let response;
    for (let attempt = 0; ; attempt += 1) {
      try {
        response = await fetch(path, init);
      } catch (error) {
        if (error.name === 'AbortError') throw error;
        throw new APIError(0, null);
      }
      // Too many requests, or the server busy: it says when to come back (the statuses in `retry` only).
      if (attempt >= RETRIES || !retry.includes(response.status)) break;
      const seconds = Math.min(MAX_RETRY_SECONDS, Math.max(1, Number(response.headers.get('Retry-After')) || 1));
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
    const etag = response.headers.get('ETag');
    const type = response.headers.get('Content-Type') || '';
    let body = null;
    if (response.status !== 204 && response.status !== 304 && type.includes('json')) {
      try {
        body = await response.json();
      } catch {
        body = null;
      }
    }
    if (!response.ok && response.status !== 304) throw new APIError(response.status, body, etag);
    return { status: response.status, body, etag };
  }

  request(path, options = {}) {
    return BoardAPI.fetchJSON(this.base + path, { ...options, token: this.board.token });
  }

  getBoard() {
    return this.request('');
  }

  /** Every sticker of the board, following `nextCursor`; also answers the listing's event id for resuming events. */
  async listStickers() {
    const stickers = [];
    let after = null;
    let eventID = null;
    for (let page = 0; page < 1000; page += 1) {
      const query = after ? `?limit=500&after=${encodeURIComponent(after)}` : '?limit=500';
      const { body, etag } = await this.request(`/stickers${query}`);
      // The listing's ETag is the board's latest event id ("e123") in the listing's snapshot.
      const match = etag && /^"e(\d+)"$/.exec(etag);
      if (match && eventID === null) eventID = match[1];
      stickers.push(...body.stickers);
      if (!body.nextCursor) break;
      after = body.nextCursor;
    }
    return { stickers, eventID };
  }

  getSticker(id, etag) {
    const headers = etag ? { 'If-None-Match': etag } : {};
    return this.request(`/stickers/${encodeURIComponent(id)}`, { headers });
  }

  /** Recognises `strokes` (in `lang`, else the server's default) into a new sticker or a field under them. */
  createSticker(strokes, lang = null) {
    return this.request('/stickers', {
      method: 'POST',
      json: lang ? { strokes, lang } : { strokes },
      headers: { 'Idempotency-Key': idempotencyKey() },
      // The key makes sending it again safe even when the first one was stored.
      retry: [429, 503],
    });
  }

  /** Takes back what a pen gesture deleted (`href` from the gesture's `undo`); the sticker as it was. */
  undo(href) {
    return BoardAPI.fetchJSON(href, {
      method: 'POST',
      token: this.board.token,
      headers: { 'Idempotency-Key': idempotencyKey() },
      retry: [429, 503],
    });
  }

  /** Key input is sent again only after 429: a 503 may come after the change was stored, and keys are not idempotent. */
  input(id, ops) {
    return this.request(`/stickers/${encodeURIComponent(id)}/input`, { method: 'POST', json: { ops }, retry: [429] });
  }

  patch(id, changes, etag) {
    const headers = etag ? { 'If-Match': etag } : {};
    return this.request(`/stickers/${encodeURIComponent(id)}`, { method: 'PATCH', json: changes, headers });
  }

  commit(id, etag) {
    const headers = etag ? { 'If-Match': etag } : {};
    return this.request(`/stickers/${encodeURIComponent(id)}/commit`, { method: 'POST', headers });
  }

  deleteSticker(id, etag) {
    const headers = etag ? { 'If-Match': etag } : {};
    return this.request(`/stickers/${encodeURIComponent(id)}`, { method: 'DELETE', headers });
  }

  endEditing() {
    return this.request('/end-editing', { method: 'POST' });
  }

  clear() {
    return this.request('/stickers', { method: 'DELETE' });
  }
}
