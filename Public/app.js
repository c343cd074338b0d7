// InkSticker web page: write anywhere on a board, see stickers appear where you wrote.

import { APIError, BoardAPI, stickerTag } from './api.js';
import { BoardEvents } from './events.js';
import { InkSurface } from './ink.js';
import { StickerLayer } from './stickers.js';
import { KeyInput } from './keys.js';

const STORAGE_KEY = 'inksticker.board';
const RECENT_KEY = 'inksticker.boards';
const MAX_RECENT = 12;
const $ = (id) => document.getElementById(id);

const isBoard = (value) => value && typeof value.id === 'string' && typeof value.token === 'string';

/**
 * Where boards' ids and tokens are kept between visits: the board open last, and the boards opened
 * before it on this device (newest first). A token is shown once, when its board is made, so
 * opening another board (a shared link, the dialog, a new board) must never lose the one before.
 */
const storage = {
  load() {
    try {
      const value = JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null');
      return isBoard(value) ? value : null;
    } catch {
      return null;
    }
  },
  /** Boards opened on this device, newest first (the open one included). */
  recent() {
    let boards = [];
    try {
      const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
      if (Array.isArray(list)) boards = list.filter(isBoard);
    } catch {
      // An unreadable list: the board kept on its own below still counts.
    }
    const current = this.load();
    // Boards kept before the list existed.
    if (current && !boards.some((b) => b.id === current.id)) boards.unshift(current);
    return boards;
  },
  save(board) {
    try {
      const entry = { id: board.id, token: board.token };
      const recent = [entry, ...this.recent().filter((b) => b.id !== board.id)].slice(0, MAX_RECENT);
      localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
      localStorage.setItem(STORAGE_KEY, JSON.stringify(entry));
    } catch {
      // Private windows may refuse storage; the board still works for this visit.
    }
  },
  /** Forgets a board the server refused: that id with that token (another token of the same
   * id, kept from elsewhere, may still be good). */
  forget(board) {
    try {
      const same = (b) => b.id === board.id && b.token === board.token;
      const current = this.load();
      if (current && same(current)) localStorage.removeItem(STORAGE_KEY);
      localStorage.setItem(RECENT_KEY, JSON.stringify(this.recent().filter((b) => !same(b))));
    } catch {
      // Nothing kept, nothing to forget.
    }
  },
};

/** The handwriting languages the picker offers, by request name, when the server has them; the
 * first (auto: the server reads with each model and keeps the surer reading) unless one is picked. */
const LANGUAGE_LABELS = [
  ['auto', 'Auto · 자동'],
  ['eng', 'English'],
  ['kor', '한국어'],
];

/** The language each board is written in on this device (`inksticker.lang.<board id>`). */
const languageStorage = {
  key: (boardId) => `inksticker.lang.${boardId}`,
  load(boardId) {
    try {
      return localStorage.getItem(this.key(boardId));
    } catch {
      return null;
    }
  },
  save(boardId, lang) {
    try {
      localStorage.setItem(this.key(boardId), lang);
    } catch {
      // Without storage the choice lasts for this visit.
    }
  },
};

/** `#board=ID&token=TOKEN`, the form of a shared link. */
function boardFromHash() {
  if (!location.hash) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get('board');
  const token = params.get('token');
  if (!id || !token) return null;
  history.replaceState(null, '', location.pathname + location.search); // keep the token out of the address bar
  return { id, token };
}

class Toast {
  constructor(element) {
    this.element = element;
    this.timer = null;
  }

  show(message, { error = false, ms = error ? 6000 : 2600 } = {}) {
    clearTimeout(this.timer);
    this.element.textContent = message;
    this.element.classList.toggle('error', error);
    this.element.hidden = false;
    this.timer = setTimeout(() => {
      this.element.hidden = true;
    }, ms);
  }

  error(error) {
    if (error && error.name === 'AbortError') return;
    this.show(error instanceof APIError ? error.message : String((error && error.message) || error), { error: true });
  }
}

class App {
  constructor() {
    this.view = { x: 0, y: 0 };
    this.board = null;
    this.api = null;
    this.events = null;
    this.resyncing = null; // the board API a resync is listing again, if any
    this.synced = false;
    this.inkOnTheWay = 0; // ink batches sent and not answered yet
    this.stickers = new Map(); // id → latest sticker JSON known
    this.deleted = new Set(); // ids that must not come back from a late answer
    this.lang = null; // the language ink is recognised in; null: the server's default
    this.focusedId = null; // the field typed into
    this.selectedId = null; // a label picked (to delete it)
    this.undoOffer = null; // the undo of the last pen gesture seen: {id, href, expiresAt}
    this.undoTimer = null;
    this.undoOfferSticker = null; // the sticker that undo puts back
    this.toast = new Toast($('toast'));
    this.layer = new StickerLayer($('stickers'));
    this.chips = $('chips');
    this.keys = new KeyInput({
      sink: $('keys'),
      api: () => this.api,
      sticker: (id) => this.stickers.get(id),
      focused: () => this.focusedId,
      onText: (id) => this.render(id),
      onSticker: (sticker) => this.upsert(sticker),
      onCommit: (id) => this.commit(id),
      onEscape: () => this.unfocus(),
      onError: (error, id) => this.handleEditError(error, id),
    });
    this.ink = new InkSurface($('ink'), {
      view: this.view,
      onBatch: (strokes) => this.write(strokes),
      onTap: (point) => this.tap(point),
      onBlankTap: () => {
        this.unfocus();
        this.unselect();
      },
      onPan: () => this.applyView(),
      onInkStart: () => this.updateHint(),
      onIdle: () => this.updateHint(),
    });
    this.wire();
  }

  wire() {
    const keepFocus = (element) => element.addEventListener('pointerdown', (event) => event.preventDefault());
    for (const button of document.querySelectorAll('.toolbar button, #home, #undo')) keepFocus(button);
    $('undo').addEventListener('click', () => this.undo());
    keepFocus(this.chips);
    $('end-editing').addEventListener('click', () => this.endEditing());
    $('clear').addEventListener('click', () => this.clear());
    $('home').addEventListener('click', () => {
      this.view.x = 0;
      this.view.y = 0;
      this.applyView();
      this.ink.redraw();
    });
    $('board-button').addEventListener('click', () => this.openDialog());
    $('close-dialog').addEventListener('click', () => $('board-dialog').close());
    $('copy-link').addEventListener('click', () => this.copyLink());
    $('new-board').addEventListener('click', () => this.newBoard());
    $('board-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.openFromDialog();
    });
    $('board-dialog').addEventListener('close', () => this.refocus());
    $('lang').addEventListener('change', () => {
      this.lang = $('lang').value;
      if (this.board) languageStorage.save(this.board.id, this.lang);
      this.refocus();
    });
    this.chips.addEventListener('click', (event) => {
      const chip = event.target.closest('button');
      if (chip) this.chipAction(chip);
    });
    document.addEventListener('keydown', (event) => this.documentKey(event));
    window.addEventListener('resize', () => this.placeChips());
  }

  // MARK: Boards

  /** Fills the language picker with the languages the server reads; hidden when there is one. */
  async loadLanguages() {
    try {
      const { languages } = await BoardAPI.languages();
      const select = $('lang');
      select.replaceChildren();
      for (const [name, label] of LANGUAGE_LABELS) {
        if (!languages.includes(name)) continue;
        const option = document.createElement('option');
        option.value = name;
        option.textContent = label;
        if (name !== 'auto') option.lang = name === 'kor' ? 'ko' : 'en';
        select.append(option);
      }
      $('lang-picker').hidden = select.options.length < 2;
    } catch {
      $('lang-picker').hidden = true; // the server's default language is used
    }
  }

  /** The picker shows the language remembered for this board, or the first one offered. */
  restoreLanguage() {
    const select = $('lang');
    const saved = this.board && languageStorage.load(this.board.id);
    const offered = Array.from(select.options, (option) => option.value);
    this.lang = offered.includes(saved) ? saved : offered[0] || null;
    if (this.lang) select.value = this.lang;
  }

  async boot() {
    await this.loadLanguages();
    const saved = storage.load();
    let board = null;
    const linked = boardFromHash();
    if (linked) {
      // A shared link opens its board; the board kept here stays in Recent boards. A link whose
      // board is gone opens the kept board rather than a new one.
      if (await this.reachable(linked, 'The linked board is not on this server.')) {
        board = linked;
        if (saved && saved.id !== linked.id) this.toast.show('Opened the linked board. Yours is under Board ▸ Recent boards.');
      }
    }
    if (!board && saved) {
      if (await this.reachable(saved, 'The saved board is not on this server any more; here is a new one.')) board = saved;
    }
    if (!board) {
      try {
        board = await BoardAPI.createBoard();
      } catch (error) {
        this.toast.error(error);
        setTimeout(() => this.boot(), 3000);
        return;
      }
    }
    await this.open(board);
  }

  /** Whether a board can be opened: false (and forgotten) when the server says it is gone; a
   * failure that says nothing of the board (the network) counts as reachable. */
  async reachable(board, goneMessage) {
    try {
      await new BoardAPI(board).getBoard();
      return true;
    } catch (error) {
      if (error.status === 401 || error.status === 404) {
        this.toast.show(goneMessage);
        storage.forget(board);
        return false;
      }
      this.toast.error(error);
      return true;
    }
  }

  async open(board) {
    if (this.events) this.events.stop();
    this.keys.reset();
    this.stickers.clear();
    this.deleted.clear();
    this.layer.clear();
    this.focusedId = null;
    this.selectedId = null;
    this.hideChips();
    // An undo offered on the board being left is no undo of the next one (its href names the old board).
    this.hideUndo();
    this.board = { id: board.id, token: board.token };
    this.api = new BoardAPI(this.board);
    storage.save(this.board);
    this.restoreLanguage();
    document.body.dataset.boardId = board.id;
    this.synced = false;
    this.updateHint();
    const eventID = await this.load();
    this.follow(eventID);
  }

  /** Follows the open board's events after `eventID` (null: from the next one), in place of any stream before. */
  follow(eventID) {
    if (this.events) this.events.stop();
    this.events = new BoardEvents({
      url: `${this.api.base}/events`,
      token: this.board.token,
      lastEventID: eventID,
      onEvent: (event) => this.event(event),
      onStatus: (status) => this.status(status),
      onFatal: (status) => this.unavailable(status),
    });
    this.events.start();
  }

  unavailable(status) {
    this.status('offline');
    this.toast.show(status === 401 ? 'This board is no longer available.' : 'Live updates are unavailable.', { error: true });
  }

  /** Loads every sticker; answers the listing's event id, from which live events resume. */
  async load() {
    try {
      const { stickers, eventID } = await this.api.listStickers();
      for (const sticker of stickers) this.upsert(sticker);
      this.synced = true;
      this.updateHint();
      return eventID;
    } catch (error) {
      this.toast.error(error);
      this.updateHint();
      return null;
    }
  }

  /**
   * After a `reset` (the server no longer keeps events this page missed): stops following, lists
   * the board, shows it as listed and follows again from the listing's event id, so that no event
   * races the listing. A listing that fails is asked for again, with growing delays, while the
   * board stays open.
   */
  async resync() {
    if (this.resyncing === this.api) return; // already listing this board again
    const api = this.api;
    this.resyncing = api;
    this.events.stop();
    this.status('connecting');
    try {
      await this.relist(api);
    } finally {
      if (this.resyncing === api) this.resyncing = null;
    }
  }

  async relist(api) {
    for (let attempt = 0; api === this.api; attempt += 1) {
      try {
        // Only stickers shown before the listing was asked for can be missing from it because they
        // are gone: one the page made meanwhile (its answer came first) stays.
        const shown = [...this.stickers.keys()];
        const { stickers, eventID } = await api.listStickers();
        if (api !== this.api) return; // another board was opened meanwhile
        const listed = new Set(stickers.map((sticker) => sticker.id));
        for (const id of shown) if (!listed.has(id)) this.remove(id, { forever: false });
        for (const sticker of stickers) this.upsert(sticker);
        this.synced = true;
        this.updateHint();
        this.follow(eventID);
        return;
      } catch (error) {
        if (api !== this.api) return;
        if (error.status === 401 || error.status === 404) {
          this.unavailable(error.status);
          return;
        }
        this.status('offline');
        await new Promise((resolve) => { setTimeout(resolve, Math.min(30000, 2000 * 2 ** Math.min(attempt, 4))); });
      }
    }
  }

  openDialog() {
    const dialog = $('board-dialog');
    $('board-id').value = this.board ? this.board.id : '';
    $('board-token').value = this.board ? this.board.token : '';
    $('board-error').hidden = true;
    this.showRecent();
    if (!dialog.open) dialog.showModal();
  }

  /** The other boards opened on this device, each a button that opens it. */
  showRecent() {
    const others = storage.recent().filter((b) => !this.board || b.id !== this.board.id);
    const list = $('recent-list');
    list.replaceChildren();
    for (const board of others) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'link';
      button.textContent = board.id;
      button.dataset.boardId = board.id;
      button.addEventListener('click', () => this.openRecent(board));
      item.append(button);
      list.append(item);
    }
    $('recent-boards').hidden = others.length === 0;
  }

  async openRecent(board) {
    if (!(await this.reachable(board, 'That board is not on this server any more.'))) {
      this.showRecent();
      return;
    }
    $('board-dialog').close();
    await this.open(board);
  }

  async openFromDialog() {
    const board = { id: $('board-id').value.trim(), token: $('board-token').value.trim() };
    const error = $('board-error');
    error.hidden = true;
    try {
      await new BoardAPI(board).getBoard();
    } catch (failure) {
      error.textContent = failure.status === 401 ? 'No board with this id and token.' : failure.message;
      error.hidden = false;
      return;
    }
    $('board-dialog').close();
    if (!this.board || board.id !== this.board.id || board.token !== this.board.token) await this.open(board);
  }

  async newBoard() {
    try {
      const board = await BoardAPI.createBoard();
      $('board-dialog').close();
      await this.open(board);
      this.toast.show('New board');
    } catch (error) {
      $('board-error').textContent = error.message;
      $('board-error').hidden = false;
    }
  }

  async copyLink() {
    if (!this.board) return;
    const link = `${location.origin}/#board=${encodeURIComponent(this.board.id)}&token=${encodeURIComponent(this.board.token)}`;
    try {
      await navigator.clipboard.writeText(link);
      this.toast.show('Link copied: anyone with it can edit this board.');
    } catch {
      $('board-token').select();
      this.toast.show('Copy the id and token to open this board elsewhere.');
    }
  }

  status(status) {
    const dot = $('live');
    dot.dataset.status = status;
    dot.title = { live: 'Live updates: on', connecting: 'Live updates: connecting', offline: 'Live updates: offline, retrying' }[status];
    if (status === 'live' && !this.synced) this.load();
  }

  // MARK: Stickers

  /** Stores a sticker unless a newer version (or its deletion) is already known, and draws it. */
  upsert(sticker, { fresh = false } = {}) {
    if (!sticker || !sticker.id || this.deleted.has(sticker.id)) return;
    const known = this.stickers.get(sticker.id);
    if (known && known.version > sticker.version) return;
    this.stickers.set(sticker.id, sticker);
    if (sticker.state !== 'field') {
      this.keys.forget(sticker.id);
      if (this.focusedId === sticker.id) this.focusedId = null;
    }
    this.render(sticker.id, { fresh: fresh && !known });
    this.updateHint();
  }

  remove(id, { forever = true } = {}) {
    if (forever) this.deleted.add(id);
    this.stickers.delete(id);
    this.keys.forget(id);
    this.layer.remove(id);
    if (this.focusedId === id) this.unfocus();
    if (this.selectedId === id) this.unselect();
    this.updateHint();
  }

  render(id, { fresh = false } = {}) {
    const sticker = this.stickers.get(id);
    if (!sticker) return;
    const text = this.keys.displayText(sticker);
    this.layer.render(sticker, { text, focused: id === this.focusedId, selected: id === this.selectedId, fresh });
    if (id === this.focusedId || id === this.selectedId) this.showChips();
  }

  event({ type, data }) {
    let payload = null;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    // A pen gesture's change carries what it did: every page offers its undo.
    const gesture = payload && payload.gesture;
    if (gesture) delete payload.gesture;
    switch (type) {
      case 'created':
        // A sticker put back by an undo (past version 1) may come back after its deletion.
        if (payload && payload.version > 1) this.deleted.delete(payload.id);
        if (this.undoOffer && payload && this.undoOfferSticker === payload.id) this.hideUndo();
        this.upsert(payload, { fresh: true });
        break;
      case 'updated':
      case 'committed':
        this.upsert(payload);
        if (gesture && gesture.undo) this.offerUndo(gesture);
        // Any other change to the sticker makes its undo stale (the server would refuse it).
        else if (this.undoOffer && payload && this.undoOfferSticker === payload.id) this.hideUndo();
        break;
      case 'deleted':
        if (payload && payload.id) this.remove(payload.id);
        if (gesture && gesture.undo) this.offerUndo(gesture);
        break;
      case 'cleared':
        // Not remembered as deleted: a sticker made after the clear, already shown from its own
        // answer, comes back with its `created` event, which follows the clear.
        for (const id of [...this.stickers.keys()]) this.remove(id, { forever: false });
        // A gesture's undo would put a sticker back on the board just cleared.
        this.hideUndo();
        break;
      case 'reset':
        // The server no longer keeps events this page has not seen: list the board again.
        this.resync();
        break;
      case 'board-deleted':
        this.toast.show('This board was deleted. Open another one from the board menu.', { error: true });
        this.events.stop();
        this.status('offline');
        break;
      default:
        break;
    }
  }

  /**
   * Sends a batch of ink; the sticker it makes (or the field it wrote into) takes the focus. Batches go
   * one after another, so ink written over a field that is still being made lands in that field.
   */
  write(strokes) {
    const api = this.api;
    this.inkOnTheWay += 1;
    const next = (this.writing || Promise.resolve()).then(() => this.send(api, strokes)).finally(() => {
      this.inkOnTheWay -= 1;
      this.updateHint();
    });
    this.writing = next;
    return next;
  }

  async send(api, strokes) {
    if (!api || api !== this.api) return;
    try {
      const { status, body } = await api.createSticker(strokes, this.lang);
      if (api !== this.api) return; // another board was opened meanwhile
      if (body && body.gesture) {
        this.applyGesture(body);
        return;
      }
      this.upsert(body, { fresh: status === 201 });
      if (body.state === 'field') this.focus(body.id);
    } catch (error) {
      this.toast.error(error);
    }
  }

  // MARK: Gestures

  /** The ink was a scratch-out or strike-through: the field without the words, or no sticker. */
  applyGesture(result) {
    if (result.sticker) this.upsert(result.sticker);
    else if (result.deleted) this.remove(result.deleted.stickerId);
    this.offerUndo(result);
  }

  /** Shows what a gesture deleted with its Undo button, for a while (the server keeps it an hour). */
  offerUndo({ deleted, undo }) {
    if (!undo || !undo.href) return;
    if (this.undoOffer && this.undoOffer.id === undo.id && !$('undo-bar').hidden) return;
    this.undoOffer = undo;
    this.undoOfferSticker = deleted && deleted.stickerId;
    const words = (deleted && deleted.words) || [];
    $('undo-message').textContent = deleted && deleted.sticker
      ? 'Sticker deleted'
      : `Deleted “${words.join(' ')}”`;
    $('undo-bar').hidden = false;
    clearTimeout(this.undoTimer);
    this.undoTimer = setTimeout(() => this.hideUndo(), 15000);
  }

  hideUndo() {
    clearTimeout(this.undoTimer);
    $('undo-bar').hidden = true;
    this.undoOffer = null;
    this.undoOfferSticker = null;
  }

  async undo() {
    const offer = this.undoOffer;
    const api = this.api;
    if (!offer || !api) return;
    this.hideUndo();
    try {
      const { status, body } = await api.undo(offer.href);
      if (api !== this.api) return;
      this.deleted.delete(body.id);
      this.upsert(body, { fresh: status === 201 });
      this.toast.show('Restored');
    } catch (error) {
      if (error instanceof APIError && error.status === 409) {
        this.toast.show('That sticker changed since; it cannot be undone.', { error: true });
      } else if (error instanceof APIError && error.status === 404) {
        this.toast.show('Nothing to undo any more.', { error: true });
      } else {
        this.toast.error(error);
      }
    }
  }

  /** A tap on a sticker focuses a field or selects a label; answers false on blank paper. */
  tap(point) {
    const hit = this.hitTest(point);
    if (!hit) return false;
    if (hit.state === 'field') this.focus(hit.id);
    else this.select(hit.id);
    return true;
  }

  hitTest(point) {
    const slop = 6;
    let found = null;
    for (const sticker of this.stickers.values()) {
      const f = sticker.frame;
      if (point.x >= f.x - slop && point.x <= f.x + f.width + slop && point.y >= f.y - slop && point.y <= f.y + f.height + slop) {
        found = sticker; // the last one drawn is on top
      }
    }
    return found;
  }

  focus(id) {
    const sticker = this.stickers.get(id);
    if (!sticker || sticker.state !== 'field') return;
    const previous = this.focusedId;
    if (this.selectedId) this.unselect();
    this.focusedId = id;
    if (previous && previous !== id) this.render(previous);
    this.render(id);
    this.keys.focus(this.screenFrame(sticker));
    this.refreshCandidates(id);
  }

  unfocus() {
    const previous = this.focusedId;
    this.focusedId = null;
    if (previous) this.render(previous);
    this.keys.blur();
    this.hideChips();
  }

  select(id) {
    if (this.focusedId) this.unfocus();
    const previous = this.selectedId;
    this.selectedId = id;
    if (previous && previous !== id) this.render(previous);
    this.render(id);
  }

  unselect() {
    const previous = this.selectedId;
    this.selectedId = null;
    if (previous) this.render(previous);
    this.hideChips();
  }

  refocus() {
    if (this.focusedId) this.keys.focus(this.screenFrame(this.stickers.get(this.focusedId)));
  }

  /** Candidates come with the sticker; a GET (If-None-Match) makes sure they are the latest. */
  async refreshCandidates(id) {
    const sticker = this.stickers.get(id);
    if (!sticker) return;
    try {
      const { status, body } = await this.api.getSticker(id, stickerTag(sticker));
      if (status === 200 && body) this.upsert(body);
    } catch (error) {
      if (error.status === 404) this.remove(id);
    }
  }

  async commit(id) {
    if (this.focusedId === id) this.unfocus();
    try {
      await this.keys.settle(id);
      const sticker = this.stickers.get(id);
      if (!sticker || sticker.state !== 'field') return;
      const { status, body } = await this.api.commit(id, stickerTag(sticker));
      if (status === 204) this.remove(id);
      else this.upsert(body);
    } catch (error) {
      await this.handleEditError(error, id);
    }
  }

  async pick(id, text) {
    const sticker = this.stickers.get(id);
    if (!sticker || sticker.state !== 'field') return;
    try {
      await this.keys.settle(id);
      const current = this.stickers.get(id);
      const { body } = await this.api.patch(id, { text }, stickerTag(current));
      this.upsert(body);
    } catch (error) {
      await this.handleEditError(error, id);
    }
  }

  async deleteSticker(id) {
    const sticker = this.stickers.get(id);
    if (!sticker) return;
    try {
      await this.api.deleteSticker(id, stickerTag(sticker));
      this.remove(id);
    } catch (error) {
      await this.handleEditError(error, id);
    }
  }

  /** 412: someone else changed the sticker first; show theirs. 404: it is gone. */
  async handleEditError(error, id) {
    if (error.status === 412) {
      this.toast.show('The sticker changed elsewhere; showing the latest version.');
      try {
        const { body } = await this.api.getSticker(id);
        this.upsert(body);
      } catch (failure) {
        if (failure.status === 404) this.remove(id);
      }
      return;
    }
    if (error.status === 404) {
      this.remove(id);
      return;
    }
    if (error.status === 409) {
      this.refreshCandidates(id);
    }
    this.toast.error(error);
    this.render(id);
  }

  async endEditing() {
    if (!this.api) return;
    this.unfocus();
    try {
      await this.keys.settleAll();
      const { body } = await this.api.endEditing();
      // The events bring the labels; without a live stream, ask for them.
      if ($('live').dataset.status !== 'live') await this.load();
      const parts = [];
      if (body.committed) parts.push(`${body.committed} ${body.committed === 1 ? 'label' : 'labels'}`);
      if (body.deleted) parts.push(`${body.deleted} empty ${body.deleted === 1 ? 'field' : 'fields'} removed`);
      this.toast.show(parts.length ? `Done: ${parts.join(', ')}` : 'No fields to finish');
    } catch (error) {
      this.toast.error(error);
    }
  }

  /** Clear asks once more (the button turns red), then removes every sticker of the board. */
  async clear() {
    const button = $('clear');
    if (!button.classList.contains('confirm')) {
      button.classList.add('confirm');
      button.querySelector('span').textContent = 'Clear all?';
      clearTimeout(this.clearTimer);
      this.clearTimer = setTimeout(() => this.resetClear(), 3000);
      return;
    }
    this.resetClear();
    if (!this.api) return;
    try {
      const { body } = await this.api.clear();
      for (const id of [...this.stickers.keys()]) this.remove(id);
      this.hideUndo();
      this.toast.show(body.deleted === 1 ? 'Removed 1 sticker' : `Removed ${body.deleted} stickers`);
    } catch (error) {
      this.toast.error(error);
    }
  }

  resetClear() {
    clearTimeout(this.clearTimer);
    const button = $('clear');
    button.classList.remove('confirm');
    button.querySelector('span').textContent = 'Clear';
  }

  // MARK: Chips

  showChips() {
    const id = this.focusedId || this.selectedId;
    const sticker = id && this.stickers.get(id);
    if (!sticker) {
      this.hideChips();
      return;
    }
    const chips = this.chips;
    chips.replaceChildren();
    chips.dataset.sticker = id;
    if (sticker.state === 'field') {
      const shown = this.keys.displayText(sticker);
      const seen = new Set();
      for (const candidate of sticker.candidates || []) {
        const text = candidate && typeof candidate.text === 'string' ? candidate.text : '';
        if (!text.trim() || seen.has(text)) continue;
        seen.add(text);
        const chip = document.createElement('button');
        chip.type = 'button';
        chip.className = text === shown ? 'chip candidate current' : 'chip candidate';
        chip.dataset.text = text;
        chip.textContent = text.replace(/\r?\n/g, ' ⏎ ');
        if (typeof candidate.confidence === 'number') chip.title = `Confidence ${Math.round(candidate.confidence * 100)}%`;
        chips.append(chip);
      }
      const done = document.createElement('button');
      done.type = 'button';
      done.className = 'chip action';
      done.dataset.action = 'commit';
      done.textContent = 'Done';
      done.title = 'Make it a label (Enter)';
      chips.append(done);
    } else {
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'chip remove';
      remove.dataset.action = 'delete';
      remove.textContent = 'Delete';
      chips.append(remove);
    }
    chips.hidden = false;
    this.placeChips();
  }

  hideChips() {
    this.chips.hidden = true;
    this.chips.replaceChildren();
    delete this.chips.dataset.sticker;
  }

  placeChips() {
    const id = this.chips.dataset.sticker;
    const sticker = id && this.stickers.get(id);
    if (!sticker || this.chips.hidden) return;
    const f = sticker.frame;
    const width = this.chips.offsetWidth;
    const height = this.chips.offsetHeight;
    const gap = 10;
    let top = f.y + f.height + gap;
    if (top - this.view.y + height > window.innerHeight - 8) top = f.y - gap - height;
    let centre = f.x + f.width / 2;
    const minCentre = this.view.x + 8 + width / 2;
    const maxCentre = this.view.x + window.innerWidth - 8 - width / 2;
    centre = Math.min(Math.max(centre, minCentre), Math.max(minCentre, maxCentre));
    this.chips.style.left = `${centre}px`;
    this.chips.style.top = `${top}px`;
  }

  chipAction(chip) {
    const id = this.chips.dataset.sticker;
    if (!id) return;
    if (chip.dataset.action === 'commit') this.commit(id);
    else if (chip.dataset.action === 'delete') this.deleteSticker(id);
    else if (chip.dataset.text !== undefined) this.pick(id, chip.dataset.text);
  }

  // MARK: View

  applyView() {
    const transform = `translate(${-this.view.x}px, ${-this.view.y}px)`;
    $('stickers').style.transform = transform;
    $('overlay').style.transform = transform;
    $('board').style.backgroundPosition = `${-this.view.x}px ${-this.view.y}px`;
    $('home').hidden = this.view.x === 0 && this.view.y === 0;
    if (this.focusedId) this.keys.place(this.screenFrame(this.stickers.get(this.focusedId)));
  }

  screenFrame(sticker) {
    const f = sticker.frame;
    return { x: f.x - this.view.x, y: f.y - this.view.y, width: f.width, height: f.height };
  }

  /** The hint of what to do shows on a board known to be empty; it steps aside while ink is on the
   * paper or on its way, and comes back when that made no sticker (a tap, nothing read, a Clear). */
  updateHint() {
    const writing = this.inkOnTheWay > 0 || Boolean(this.ink && this.ink.busy);
    $('hint').hidden = !this.synced || this.stickers.size > 0 || writing;
  }

  /** Keys typed while the hidden input does not have the focus (after a click elsewhere). */
  documentKey(event) {
    if (event.defaultPrevented || $('board-dialog').open) return;
    // Ctrl+Z (⌘Z) takes back the gesture offered, wherever the keys go.
    if (this.undoOffer && (event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      this.undo();
      return;
    }
    if (event.target instanceof HTMLInputElement || event.target === $('keys')) return;
    if (this.focusedId) {
      this.keys.handleKey(event);
      return;
    }
    if (this.selectedId && (event.key === 'Backspace' || event.key === 'Delete')) {
      event.preventDefault();
      this.deleteSticker(this.selectedId);
    } else if (event.key === 'Escape') {
      this.unselect();
    }
  }
}

const app = new App();
app.boot();
