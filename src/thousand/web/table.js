// The table page (/t/{id}): a WebSocket to /ws/{id} (the seat's token as a subprotocol), the view from the
// snapshot (authoritative), a line for every event, the score sheet and its chart, chat,
// hints, the open-hands training mode, and reconnecting with backoff.

import {
  el, clear, api, loadTexts, eventText, errorText, parseTyped, mountHeader, announce,
  seatName, currentPlayer, guestTag,
} from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { renderBoard, handleArrows, moveLabel, promptText, otherTalonNote, cardFace } from "./board.js";
import { sheetRows, sheetTable, scoreChart } from "./sheet.js";
import { joinPanel } from "./join.js";
import { clockText } from "./time_control.js";
import { capture as captureMotion, play as playMotion, collect as collectTrick } from "./motion.js";
import { playSound, soundOn, setSoundOn } from "./sound.js";
import { turnNotice, notifySwitch } from "./turn_notice.js";
import * as site from "./rematch.js";
import { openReport } from "./report.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const TOKEN_KEY = `thousand.seat.${tableId}`;
// an unlisted table's link carries its secret (?invite=): its seats need it, and the
// players' invite link passes it on; kept so that a reload still has it
const INVITE_KEY = `thousand.invite.${tableId}`;
const invite = (() => {
  const given = new URLSearchParams(location.search).get("invite");
  try {
    if (given) localStorage.setItem(INVITE_KEY, given);
    return given || localStorage.getItem(INVITE_KEY);
  } catch (e) {
    return given;
  }
})();
const NAME_KEY = "thousand.name";
const SHEET_KEY = "thousand.sheetAfterDeal";
const HOLD_MS = 900;

const state = {
  ws: null,
  connected: false,
  retries: 0,
  retryTimer: null,
  frozen: false, // the browser froze the page: its socket closed until it resumes
  version: -1, // the version of the view shown
  latest: -1, // the newest version the table has told us about
  snapshot: null,
  view: null,
  header: null,
  seat: null,
  seats: [],
  over: false,
  winner: null,
  eventsByV: new Map(),
  liveFrom: null,
  synced: false,
  syncFallback: false,
  snapshotPending: false,
  busy: false,
  pendingDeclare: null,
  showLastTrick: false,
  hint: null,
  open: false,
  hands: null,
  chat: [],
  muted: [], // the seats whose chat this seat does not want (mute; docs/server.md)
  texts: {},
  hold: null,
  holdTimer: null,
  shownTricks: null,
  clock: null,
  clockWarned: new Set(), // "version:seconds": the warnings of my clock said already
  lastError: null,
  picked: null, // a card tapped once on a touch screen: the second tap plays it
  collected: null, // how many tricks had gone to their takers when the cloth was cleared
  gameOverShown: false,
  myTurn: false,
  turnText: "",
};

/** No token kept here: the seat may be this player's from another device (his account,
 * GET /api/me/seats): take it back. */
async function takeBackSeat() {
  try {
    const mine = await api("/api/me/seats");
    const s = (mine.seats || []).find((x) => x.table === tableId);
    if (s) localStorage.setItem(TOKEN_KEY, JSON.stringify({ seat: s.seat, token: s.token }));
  } catch (e) {
    // no seats to take back: the page watches
  }
}

function stored() {
  try {
    const s = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? "null");
    return s && typeof s.token === "string" ? s : null;
  } catch (e) {
    return null;
  }
}

function names() {
  const base = state.header && Array.isArray(state.header.players) ? [...state.header.players] : [];
  for (const s of state.seats || []) if (s && typeof s.seat === "number" && s.name) base[s.seat] = s.name;
  return base;
}

/** The players' names in every case ({name: {gen, dat, …}}), as the snapshot sends them. */
function nameForms(lang) {
  const all = state.snapshot && state.snapshot.name_forms;
  return (all && all[lang === "ru" ? "ru" : "en"]) || {};
}

function allEvents() {
  return [...state.eventsByV.keys()].sort((a, b) => a - b).flatMap((v) => state.eventsByV.get(v));
}

// ------------------------------------------------------------------ connection

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/${encodeURIComponent(tableId)}`;
}

/** The socket's subprotocols: the seat's token travels beside "thousand", never in the
 * URL (logs and proxies keep URLs). */
function wsProtocols() {
  const s = stored();
  if (s) return ["thousand", `token.${s.token}`];
  // an unlisted table is watched with its link's secret (docs/server.md "Unlisted tables")
  return invite ? ["thousand", `invite.${invite}`] : ["thousand"];
}

function connect() {
  clearTimeout(state.retryTimer);
  setConn("connecting");
  let ws;
  try {
    ws = new WebSocket(wsUrl(), wsProtocols());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  state.ws = ws;
  ws.addEventListener("open", () => {
    state.connected = true;
    state.retries = 0;
    state.snapshotPending = true; // the table sends one on connect
    setConn("online");
  });
  ws.addEventListener("message", (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    handle(msg);
  });
  ws.addEventListener("close", (e) => {
    if (state.ws !== ws) return;
    state.connected = false;
    state.busy = false;
    state.snapshotPending = false;
    if (state.frozen) return; // it opens again as the page resumes
    const hadSeat = stored();
    if ([4401, 4403, 1008].includes(e.code) && hadSeat) {
      // the seat token is no longer good: watch instead
      localStorage.removeItem(TOKEN_KEY);
      announce(t("token_refused"), "error");
    }
    if (e.code === 4404 || (e.code === 4403 && !hadSeat)) {
      // no such table, or an unlisted one watched without its link: trying again won't help
      setConn("gone");
      return;
    }
    scheduleReconnect();
  });
}

/** A page the browser freezes (a tab long in the background, a phone's) runs nothing, so
 * it could not tell the player his move; its socket is closed, so that the table sees
 * him gone and the server sends his turn notice by push instead (docs/server.md "Web
 * Push").  It opens again as the page resumes. */
function onFreeze() {
  state.frozen = true;
  clearTimeout(state.retryTimer);
  if (state.ws) state.ws.close(1000, "frozen");
}

function onResume() {
  if (!state.frozen) return;
  state.frozen = false;
  connect();
}

function scheduleReconnect() {
  const delay = Math.min(15000, 500 * 2 ** state.retries) * (0.75 + Math.random() * 0.5);
  state.retries += 1;
  setConn("reconnecting", Math.round(delay / 1000));
  state.retryTimer = setTimeout(connect, delay);
  render();
}

function send(msg) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

function requestSnapshot() {
  if (state.snapshotPending) return;
  if (send({ type: "snapshot" })) state.snapshotPending = true;
}

function setConn(kind, seconds = 0) {
  const box = document.getElementById("conn");
  if (!box) return;
  box.dataset.state = kind;
  const text = {
    connecting: t("conn_connecting"),
    online: state.seat === null || state.seat === undefined ? t("conn_watching") : t("conn_online"),
    reconnecting: t("conn_reconnecting", { s: seconds }),
    gone: t("conn_gone"),
  }[kind];
  box.textContent = text ?? "";
}

// ------------------------------------------------------------------ messages

function handle(msg) {
  switch (msg.type) {
    case "snapshot": onSnapshot(msg); break;
    case "events": onEvents(msg); break;
    case "error": onError(msg); break;
    case "chat": addChat(msg); break;
    case "muted":
      state.muted = Array.isArray(msg.seats) ? msg.seats : [];
      renderChat();
      break;
    case "seats":
      state.seats = Array.isArray(msg.seats) ? msg.seats : state.seats;
      if (state.status === "waiting" && !state.seats.some((x) => x.kind !== "bot" && !x.taken)) {
        requestSnapshot(); // every seat is taken: the game begins
      }
      render();
      break;
    case "hint": onHint(msg); break;
    case "open":
      state.open = !!msg.on;
      if (Array.isArray(msg.hands)) state.hands = msg.hands;
      render();
      break;
    case "clock":
      state.clock = { ...msg, at: Date.now() };
      render();
      break;
    default:
      site.onMessage(msg); // rematch.js: ratings, rematch
      break;
  }
}

function onSnapshot(msg) {
  state.snapshotPending = false;
  const first = state.snapshot === null;
  const prevView = state.view;
  state.snapshot = msg;
  if (msg.table) state.header = msg.table;
  state.view = msg.view;
  state.version = msg.version;
  state.latest = Math.max(state.latest, msg.version);
  state.seat = msg.seat ?? null;
  state.over = !!msg.over;
  state.winner = msg.winner ?? null;
  if (Array.isArray(msg.seats)) state.seats = msg.seats;
  state.muted = Array.isArray(msg.muted) ? msg.muted : [];
  if (Array.isArray(msg.chat)) {
    state.chat = msg.chat.slice(-50);
    renderChat();
  }
  if ("open" in msg) state.open = !!msg.open;
  state.hands = Array.isArray(msg.hands) ? msg.hands : (msg.view && Array.isArray(msg.view.hands) ? msg.view.hands : null);
  state.clock = msg.clock ? { ...msg.clock, at: Date.now() } : null;
  state.status = msg.status ?? null;
  state.rated = !!msg.rated;
  site.onSnapshot(msg);
  if (state.liveFrom === null) state.liveFrom = msg.version;
  setConn("online");
  // the events we missed (all of them the first time: the log and the score sheet)
  if (!state.synced) {
    state.synced = true;
    send({ type: "sync", version: state.syncFallback ? 0 : -1 });
  } else {
    const have = state.eventsByV.size ? Math.max(...state.eventsByV.keys()) : -1;
    if (have < msg.version) send({ type: "sync", version: Math.max(have, state.syncFallback ? 0 : -1) });
  }
  if (state.latest > state.version) requestSnapshot();
  if (first) document.title = `${t("table_title")} — ${t("app_name")}`;
  onNewView(prevView);
}

/** What follows a new view, a snapshot's or one an events message patched: the move
 * sent is answered, the finished trick is held on the cloth, the board drawn, and the
 * end of the game shown with its sheet once the events (every deal) are in. */
function onNewView(prevView) {
  state.busy = false;
  state.pendingDeclare = null;
  maybeHoldTrick(prevView, state.view);
  state.picked = null;
  render();
  if (state.over && state.eventsByV.size && !state.gameOverShown) showGameOver();
}

/** The view an events message carries (docs/protocol.md): `view` holds the keys that
 * changed since the view of version `base` (`base` null: the whole view), `over` and
 * `winner` when they changed (and `rematch` at the game's end).  Applied only on the view it was taken against; false
 * (nothing changed here) when the message has no view or the page is not at `base` —
 * a gap, which a snapshot fills. */
function applyView(msg) {
  const patch = msg.view;
  if (!patch || typeof patch !== "object" || typeof msg.version !== "number") return false;
  if (msg.version < state.version) return false;
  if (msg.base === null) state.view = patch;
  else if (msg.base === state.version && state.view) state.view = { ...state.view, ...patch };
  else return false;
  state.version = msg.version;
  if ("over" in msg) state.over = !!msg.over;
  if ("winner" in msg) state.winner = msg.winner ?? null;
  if (state.over) state.status = "over";
  // the game's end brings the rematch as a snapshot would (rematch.js shows it)
  if (msg.rematch && typeof msg.rematch === "object") site.onMessage({ ...msg.rematch, type: "rematch_asked" });
  return true;
}

/** Keep a just-finished trick on the cloth for a moment, then send it to its taker (the
 * next card played ends the moment at once: nothing waits for the picture). */
function maybeHoldTrick(prev, view) {
  if (!prev || !view) return;
  const before = (prev.tricks || []).length;
  const after = (view.tricks || []).length;
  if (after > before && after > 0 && !view.result) {
    const last = view.tricks[after - 1];
    const hold = { cards: last.cards, winner: last.winner, points: last.points };
    state.hold = (view.trick || []).length ? null : hold;
    clearTimeout(state.holdTimer);
    if (!state.hold) return;
    state.holdTimer = setTimeout(() => {
      if (state.hold !== hold) return;
      collectTrick(els.board, hold.winner);
      state.hold = null;
      state.collected = after;
      render();
    }, HOLD_MS);
  } else if (after !== before || (view.trick || []).length) {
    // the next card is led while the last trick is still shown: it goes to its taker now
    if (state.hold) collectTrick(els.board, state.hold.winner);
    clearTimeout(state.holdTimer);
    state.hold = null;
  }
}

function onEvents(msg) {
  const events = Array.isArray(msg.events) ? msg.events : [];
  const byV = new Map();
  for (const ev of events) {
    const v = typeof ev.v === "number" ? ev.v : msg.version;
    if (!byV.has(v)) byV.set(v, []);
    byV.get(v).push(ev);
  }
  const fresh = [];
  for (const [v, list] of byV) {
    if (!state.eventsByV.has(v)) {
      state.eventsByV.set(v, list);
      fresh.push(...list);
    }
  }
  if (typeof msg.version === "number") state.latest = Math.max(state.latest, msg.version);
  if (Array.isArray(msg.hands)) state.hands = msg.hands;
  const live = fresh.filter((ev) => state.liveFrom !== null && ev.v > state.liveFrom);
  soundsFor(live);
  if (live.length) {
    // an answer to an earlier moment is no longer true: the hint and a tapped card go
    state.hint = null;
    state.picked = null;
    state.showLastTrick = false;
    hideHint();
  }
  // the move's view comes with its events: no snapshot, unless the page missed one
  const prevView = state.view;
  const patched = applyView(msg);
  if (state.latest > state.version) requestSnapshot();
  renderLog();
  renderSheet();
  if (patched) onNewView(prevView);
  if (live.some((ev) => ev.type === "game_over")) {
    state.over = true;
    if (!patched) requestSnapshot(); // a server whose events carry no view
  } else if (live.some((ev) => ev.type === "deal_scored") && localStorage.getItem(SHEET_KEY) !== "off") {
    showSheetDialog();
  }
  if (state.over && !state.gameOverShown && events.length) showGameOver();
}

/** A sound for what just happened at the table (sound.js decides whether it plays). */
function soundsFor(events) {
  const types = new Set(events.map((ev) => ev.type));
  if (types.has("deal_scored")) playSound("deal");
  else if (types.has("declaration")) playSound("marriage");
  else if (types.has("trick")) playSound("trick");
  else if (types.has("card")) playSound("card");
}

function onError(msg) {
  state.busy = false;
  if (msg.code === "malformed" && state.synced && !state.syncFallback && state.eventsByV.size === 0) {
    // an older table that counts sync versions from 0
    state.syncFallback = true;
    send({ type: "sync", version: 0 });
    return;
  }
  if (msg.code === "stale_version") requestSnapshot();
  const text = errorText(msg, names(), state.texts, getLang(), state.seat, nameForms(getLang()));
  state.lastError = text;
  showError(text);
  render();
}

function onHint(msg) {
  state.hint = typeof msg.move === "string" ? msg.move : null;
  const reason = msg.reason && typeof msg.reason === "object" ? (msg.reason[getLang()] || msg.reason.en || "") : (msg.reason || "");
  const box = document.getElementById("hint-box");
  if (box) {
    // the server words the move as advice («Поднимите заказ до 130»), as the terminal does
    const advice = msg.advice && typeof msg.advice === "object" ? (msg.advice[getLang()] || msg.advice.en) : null;
    const shown = advice || (typeof msg.move === "string" && state.view ? moveLabel(msg.move, state.view, null, getLang()) : (msg.move ?? "—"));
    clear(box, el("strong", {}, t("hint_label")), " ",
      advice ? el("span", { class: "hint-advice" }, shown) : el("code", {}, shown),
      reason ? ` — ${reason}` : "");
    box.hidden = false;
  }
  render();
}

function hideHint() {
  const box = document.getElementById("hint-box");
  if (box) {
    box.hidden = true;
    clear(box);
  }
}

// ------------------------------------------------------------------ moves

function makeMove(move) {
  if (!move || state.busy) return;
  const v = state.view;
  if (!v || state.seat === null || v.to_move !== state.seat) {
    showError(t("not_your_move"));
    return;
  }
  if (state.version !== state.latest) {
    requestSnapshot();
    return;
  }
  state.pendingDeclare = null;
  if (send({ type: "move", move, version: state.version })) {
    state.busy = true;
    state.hint = null;
    hideError();
    render();
  } else {
    showError(t("conn_lost_move"));
  }
}

function onCard(card, e) {
  const v = state.view;
  if (!v) return;
  const legal = v.legal || [];
  // a finger picks a card first (the cards overlap on a phone), the second tap plays it
  if (e && e.pointerType === "touch" && state.picked !== card) {
    state.picked = card;
    render();
    return;
  }
  state.picked = null;
  if (legal.includes(`${card}+`) && legal.includes(card)) {
    state.pendingDeclare = card;
    render();
    const first = document.querySelector(".actions button");
    if (first) first.focus();
    return;
  }
  if (legal.includes(`${card}+`)) return makeMove(`${card}+`);
  if (legal.includes(`give ${card}`)) return makeMove(`give ${card}`);
  if (legal.includes(`discard ${card}`)) return makeMove(`discard ${card}`);
  if (legal.some((m) => m.startsWith("give "))) return makeMove(`give ${card}`);
  if (legal.some((m) => m.startsWith("discard "))) return makeMove(`discard ${card}`);
  return makeMove(card);
}

// ------------------------------------------------------------------ rendering

let els = {};

function layout() {
  const main = document.getElementById("main");
  els = {
    conn: el("div", { id: "conn", class: "conn", role: "status" }),
    join: el("div", { id: "join" }),
    error: el("div", { id: "error", class: "error-line", role: "alert", hidden: true }),
    waiting: el("div", { id: "waiting", class: "hint-line", role: "status", hidden: true }),
    ratedLeave: el("div", { id: "rated-leave", class: "hint-line", hidden: true }),
    board: el("div", { id: "board", class: "board-wrap" }),
    hint: el("div", { id: "hint-box", class: "hint-line", role: "status", hidden: true }),
    command: el("form", { id: "command", class: "command", autocomplete: "off" }),
    tools: el("div", { class: "tools" }),
    log: el("ol", { id: "log", class: "log-list" }),
    turn: el("div", { id: "turn-status", class: "sr-only", role: "status" }),
    watching: el("p", { id: "watching", class: "hint-line", hidden: true }),
    chat: el("ol", { id: "chat", class: "chat-list" }),
    chatForm: el("form", { id: "chat-form", class: "chat-form", autocomplete: "off" }),
    sheet: el("div", { id: "sheet" }),
    chart: el("div", { id: "chart" }),
    invite: el("section", { id: "invite", class: "invite panel" }),
    // a modal <dialog>: what is behind it is inert while it is open (Tab stays inside)
    overlay: el("dialog", { id: "overlay", class: "overlay", "aria-labelledby": "dialog-title" }),
  };
  els.overlay.hidden = true;
  state.turnText = ""; // the new status line is said again
  els.overlay.addEventListener("cancel", (e) => {
    e.preventDefault();
    closeDialog();
  });
  els.overlay.addEventListener("keydown", trapTab);
  const cmdInput = el("input", { id: "move-input", name: "move", type: "text", inputmode: "text",
    spellcheck: "false", autocapitalize: "off" });
  els.command.append(
    el("label", { for: "move-input", "data-i18n": "move_input_label" }, t("move_input_label")),
    cmdInput,
    el("button", { type: "submit", "data-i18n": "move_submit" }, t("move_submit")),
  );
  els.command.addEventListener("submit", (e) => {
    e.preventDefault();
    const v = state.view;
    if (!v) return;
    const r = parseTyped(cmdInput.value, v.legal || [], state.texts && state.texts.typed);
    if (r.error) {
      const why = {
        typed_empty: () => t("typed_empty"),
        typed_not_now: () => t("typed_not_now", { text: cmdInput.value }),
        typed_unknown: () => t("typed_unknown", { text: cmdInput.value }),
      }[r.error] ?? (() => t("typed_unknown", { text: cmdInput.value }));
      showError(why());
      return;
    }
    cmdInput.value = "";
    cmdInput.blur(); // the next move's buttons or cards take the focus
    makeMove(r.move);
  });
  const chatInput = el("input", { id: "chat-input", name: "text", type: "text", maxlength: "200" });
  els.chatForm.append(
    el("label", { for: "chat-input", class: "sr-only", "data-i18n": "chat_input_label" }, t("chat_input_label")),
    chatInput,
    el("button", { type: "submit", "data-i18n": "chat_send" }, t("chat_send")),
  );
  els.chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim().slice(0, 200);
    if (!text) return;
    if (send({ type: "chat", text })) chatInput.value = "";
  });
  clear(main, 
    el("div", { class: "table-layout" },
      el("div", { class: "play-col" },
        el("h1", { class: "sr-only", "data-i18n": "table_title" }, t("table_title")),
        els.conn, els.turn, els.join, els.waiting, els.ratedLeave, els.invite, els.error, els.board, els.hint, els.watching,
        els.command, els.tools),
      el("aside", { class: "side" },
        el("section", { class: "panel" }, el("h2", { "data-i18n": "log_title" }, t("log_title")),
          // a region that takes the focus: the keyboard can scroll the whole game back
          el("div", { class: "log", id: "log-box", role: "log", tabindex: "0", "aria-label": t("log_region") }, els.log)),
        el("section", { class: "panel" }, el("h2", { "data-i18n": "chat_title" }, t("chat_title")), els.chat, els.chatForm),
        el("section", { class: "panel" },
          el("h2", { "data-i18n": "sheet_title" }, t("sheet_title")), els.sheet,
          el("h3", { "data-i18n": "chart_title" }, t("chart_title")), els.chart),
      ),
    ),
    els.overlay,
  );
}

function render() {
  if (!els.board) return;
  const v = state.view;
  const lang = getLang();
  renderJoin();
  renderTools();
  renderInvite();
  const watching = state.seat === null;
  els.chatForm.hidden = watching;
  els.command.hidden = watching;
  els.watching.hidden = !watching || !v;
  els.watching.textContent = t("spectator_note");
  const freeSeats = (state.seats || []).filter((x) => x.kind !== "bot" && !x.taken);
  const waiting = state.status === "waiting" && freeSeats.length > 0;
  // a rated game after the deal: leaving it loses it, and the page says so beforehand
  const ratedLeave = !watching && !waiting && state.rated && state.status === "playing" && !(v && state.over);
  els.waiting.hidden = !waiting;
  if (els.ratedLeave.hidden === ratedLeave) {
    els.ratedLeave.hidden = !ratedLeave;
    clear(els.ratedLeave, ratedLeave ? [t("rated_leave_note"), " ", site.leaveButton(t("rated_leave_confirm"))] : []);
  }
  if (waiting) {
    const free = freeSeats.map((x) => t("free_seat_n", { n: x.seat + 1 })
      + (x.name ? ` (${x.name})` : "")).join(", ");
    els.waiting.textContent = t("waiting_players", { free }) + (watching ? "" : ` ${t("waiting_invite")}`);
    if (!watching) els.waiting.append(" ", site.leaveButton());
  }
  if (!v) {
    clear(els.board, el("p", { class: "muted" }, t("loading")));
    return;
  }
  const myTurn = !watching && v.to_move === state.seat && (v.legal || []).length > 0 && !waiting;
  turnNotice(myTurn); // the tab's title and icon, the sound, a notification (turn_notice.js)
  state.myTurn = myTurn;
  if (!state.hint) hideHint();
  const before = captureMotion(els.board);
  const ctx = {
    view: v,
    names: names(),
    seats: state.seats,
    lang,
    mySeat: state.seat,
    hands: state.open || state.over ? state.hands : null,
    rules: state.header ? state.header.rules : null,
    interactive: state.seat !== null && !state.over,
    busy: state.busy || !state.connected,
    pendingDeclare: state.pendingDeclare,
    hint: state.hint,
    clock: state.clock,
    trickShown: state.hold,
    showLastTrick: state.showLastTrick,
    onMove: makeMove,
    onCard,
    // the board is drawn afresh on every event: the focus goes back to the seat's new button
    onReport: (seat, name) => openReport(name, { table: tableId, seat },
      () => els.board.querySelector(`.seat-report[data-seat="${seat}"]`)),
    onDeclareChoice: (card) => {
      state.pendingDeclare = card;
      render();
    },
    onToggleLastTrick: () => {
      state.showLastTrick = !state.showLastTrick;
      render();
    },
    forms: nameForms(lang),
    waiting,
    picked: state.picked,
    collected: state.collected,
    lastOtherTalon: v.hand_sizes.length === 2 ? lastOtherTalon(allEvents()) : null,
  };
  renderBoard(els.board, ctx);
  playMotion(els.board, before);
  // whose move, said once when it changes (the board's own line is drawn afresh each time)
  const said = promptText(ctx);
  if (said !== state.turnText) {
    state.turnText = said;
    els.turn.textContent = said;
  }
  // keyboard play: when it becomes my move and nothing has the focus, focus the move
  const idle = !document.activeElement || document.activeElement === document.body;
  if (myTurn && idle && !els.overlay.open) {
    const target = els.board.querySelector(".actions button:not([disabled])")
      ?? els.board.querySelector(".hand button.playable");
    if (target) target.focus({ preventScroll: true });
  }
}

function renderTools() {
  const seatsInfo = state.seats || [];
  const humans = seatsInfo.filter((s) => s.kind !== "bot");
  const training = state.seat !== null && humans.length === 1 && seatsInfo.length > 1;
  const sheetOn = localStorage.getItem(SHEET_KEY) !== "off";
  clear(els.tools, 
    state.seat !== null && !state.over ? el("button", {
      type: "button", id: "hint-button", "aria-keyshortcuts": "Shift+H",
      disabled: !(state.view && state.view.to_move === state.seat) ? true : null,
      onclick: () => send({ type: "hint" }),
    }, t("hint_button")) : null,
    training ? el("button", {
      type: "button", id: "open-button", "aria-pressed": state.open ? "true" : "false",
      onclick: () => send({ type: "open", on: !state.open }),
    }, state.open ? t("open_hands_off") : t("open_hands_on")) : null,
    el("button", { type: "button", id: "sheet-button", onclick: () => showSheetDialog() }, t("show_sheet")),
    el("button", { type: "button", id: "sound-button", "aria-pressed": soundOn() ? "true" : "false",
      onclick: () => {
        setSoundOn(!soundOn());
        renderTools();
        document.getElementById("sound-button")?.focus();
      } }, el("span", { class: "sym", "aria-hidden": "true" }, "♪"), t("sound_label")),
    state.seat !== null && !state.over ? notifySwitch(renderTools) : null,
    el("label", { class: "check" },
      el("input", { type: "checkbox", checked: sheetOn ? true : null,
        onchange: (e) => localStorage.setItem(SHEET_KEY, e.target.checked ? "on" : "off") }),
      t("sheet_after_deal")),
    el("details", { class: "keys" },
      el("summary", {}, t("keys_title")),
      el("ul", {},
        el("li", {}, t("keys_digits")),
        el("li", {}, t("keys_arrows")),
        el("li", {}, t("keys_enter")),
        el("li", {}, t("keys_type")),
        el("li", {}, t("keys_other")))),
  );
}

// The join panel (join.js): the free seats, and what went wrong with the seat asked for.
const join = joinPanel({
  tableId,
  invite,
  container: () => els.join,
  onJoined: (seat, token) => {
    localStorage.setItem(TOKEN_KEY, JSON.stringify({ seat, token }));
    state.synced = true;
    if (state.ws) {
      const old = state.ws;
      state.ws = null;
      old.close();
    }
    connect();
  },
  refresh: () => refreshSeats(),
});

function renderJoin() {
  join.render({ seats: state.seats || [], seat: stored() ? state.seat : null, over: state.over });
}

function renderInvite() {
  const free = (state.seats || []).filter((x) => x.kind !== "bot" && !x.taken);
  clear(els.invite);
  // the link is for the one who can invite: a player at the table, not a visitor
  if (!free.length || state.over || state.seat === null) return;
  const secret = invite ? `&invite=${encodeURIComponent(invite)}` : "";
  const url = `${location.origin}/t/${encodeURIComponent(tableId)}?seat=${free[0].seat}${secret}`;
  const input = el("input", { id: "invite-url", type: "text", readonly: true, value: url });
  els.invite.append(
    el("h2", {}, t("invite_title")),
    el("p", {}, t("invite_text")),
    el("label", { for: "invite-url", class: "sr-only" }, t("invite_title")),
    input,
    el("button", { type: "button", onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch (e) {
        input.select();
        document.execCommand("copy");
      }
      announce(t("copied"));
    } }, t("copy")),
  );
}

function renderLog() {
  if (!els.log) return;
  const lang = getLang();
  const nm = names();
  const forms = nameForms(lang);
  const lines = [];
  for (const ev of allEvents()) {
    if (ev.type === "hand" && ev.seat !== state.seat) continue;
    lines.push({ ev, text: eventText(ev, nm, state.texts, lang, state.seat, forms) });
  }
  const shown = lines.slice(-150);
  // only the new lines are added when the old ones stay (the log is a live region: a
  // screen reader reads what is added, not the whole game again)
  const old = [...els.log.children];
  const keep = old.length <= shown.length && old.every((li, i) => li.textContent === shown[i].text);
  const fresh = keep ? shown.slice(old.length) : shown;
  if (!keep) clear(els.log);
  els.log.append(...fresh.map(({ ev, text }) => el("li", { class: `ev ev-${ev.type}` }, text)));
  const box = els.log.parentElement;
  if (box) box.scrollTop = box.scrollHeight;
}

/** Which seats hold a guest (a name that is no account's), for the sheet's columns. */
function guestMarks() {
  const marks = [];
  for (const s of state.seats || []) if (s && typeof s.seat === "number") marks[s.seat] = s.kind !== "bot" && !!s.guest;
  return marks;
}

function renderSheet() {
  if (!els.sheet) return;
  const nm = names();
  if (!nm.length) return;
  const rows = sheetRows(allEvents());
  clear(els.sheet, sheetTable(rows, nm, getLang(), null, guestMarks()));
  clear(els.chart, scoreChart(rows, nm, state.header ? state.header.rules : {}));
}

function addChat(msg) {
  state.chat.push(msg);
  state.chat = state.chat.slice(-50);
  renderChat();
}

/** Mute or unmute a seat's chat for this seat (the server remembers it for the table). */
function setMuted(seat, on) {
  send({ type: on ? "mute" : "unmute", seat });
}

function renderChat() {
  if (!els.chat) return;
  const me = state.seat;
  const who = (seat) => seatName(seat, names());
  // a guest's line is marked as his seat is (the chat keeps the name he said it under)
  const guest = (m) => (state.seats || []).some((s) => s.seat === m.seat && s.guest && s.name === m.name);
  const lines = state.chat.map((m) => el("li", {},
    el("span", { class: "who" }, m.name || who(m.seat)), guest(m) ? [" ", guestTag()] : null, ": ",
    el("span", { class: "text" }, String(m.text ?? "")),
    me !== null && typeof m.seat === "number" && m.seat !== me && !state.muted.includes(m.seat)
      ? el("button", { type: "button", class: "small chat-mute", "data-seat": String(m.seat),
        "aria-label": t("chat_mute_label", { name: m.name || who(m.seat) }),
        onclick: () => setMuted(m.seat, true) }, t("chat_mute")) : null,
    // anyone but the speaker reports him to the moderators (docs/server.md "Moderation")
    typeof m.seat === "number" && m.seat !== me
      ? el("button", { type: "button", class: "small chat-report", "data-seat": String(m.seat),
        "aria-label": t("report_label", { name: m.name || who(m.seat) }),
        onclick: (ev) => openReport(m.name || who(m.seat), { table: tableId, seat: m.seat }, ev.currentTarget) },
      t("report")) : null));
  const hidden = me === null ? [] : state.muted.map((seat) => el("li", { class: "chat-muted" },
    t("chat_muted", { name: who(seat) }), " ",
    el("button", { type: "button", class: "small chat-unmute", "data-seat": String(seat),
      onclick: () => setMuted(seat, false) }, t("chat_unmute"))));
  clear(els.chat, ...lines, ...hidden);
  els.chat.scrollTop = els.chat.scrollHeight;
}

function showError(text) {
  if (!els.error) return;
  els.error.textContent = text;
  els.error.hidden = false;
}

function hideError() {
  if (els.error) els.error.hidden = true;
}

// ------------------------------------------------------------------ dialogs

let lastFocus = null;

function openDialog(title, body, buttons) {
  if (!els.overlay.open) lastFocus = document.activeElement;
  const dialog = el("div", { class: "dialog" },
    el("h2", { id: "dialog-title" }, title), body,
    el("div", { class: "dialog-buttons" }, buttons));
  clear(els.overlay, dialog);
  els.overlay.hidden = false;
  if (!els.overlay.open) els.overlay.showModal();
  // the dialog opens at its top (the winner, the title) with its first button focused
  const first = dialog.querySelector(".dialog-buttons button, .dialog-buttons a");
  if (first) first.focus({ preventScroll: true });
  els.overlay.scrollTop = 0;
  dialog.scrollTop = 0;
}

/** Tab and Shift+Tab go round the dialog's own controls (showModal makes the page behind
 * inert; this keeps the focus off the browser's own bar too). */
function trapTab(e) {
  if (e.key !== "Tab" || !els.overlay.open) return;
  const items = [...els.overlay.querySelectorAll("button, a[href], [tabindex='0'], input")]
    .filter((x) => !x.disabled && x.getClientRects().length);
  if (!items.length) return;
  const i = items.indexOf(document.activeElement);
  const j = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i < 0 || i === items.length - 1 ? 0 : i + 1);
  e.preventDefault();
  items[j].focus();
}

function closeDialog() {
  if (els.overlay.open) els.overlay.close();
  els.overlay.hidden = true;
  clear(els.overlay);
  const usable = lastFocus && lastFocus !== document.body && document.contains(lastFocus) && !lastFocus.disabled;
  const target = usable ? lastFocus
    : els.board.querySelector(".actions button:not([disabled])")
      ?? els.board.querySelector(".hand button.playable:not([disabled])")
      ?? els.board.querySelector(".hand button:not([disabled])");
  if (target) target.focus();
}

/** Two players: the talon nobody took in the deal last scored (the `other_talon` event
 * of that move) as {chosen, cards, declarer, active}; null otherwise. */
function lastOtherTalon(events) {
  const scored = [...events].reverse().find((e) => e.type === "deal_scored");
  const other = scored && events.find((e) => e.type === "other_talon" && e.v === scored.v);
  if (!other || !Array.isArray(other.cards)) return null;
  return { chosen: 3 - other.talon, cards: other.cards, declarer: scored.declarer,
    active: names().map((_, s) => s) };
}

/** The talon nobody took in the deal last scored, turned over, and to whom its points
 * went: for the dialogs after a deal and at the game's end. */
function otherTalonBlock(events) {
  const last = lastOtherTalon(events);
  if (!last) return null;
  const lang = getLang();
  const ctx = { names: names(), lang, mySeat: state.seat, forms: nameForms(lang) };
  return el("div", { class: "other-talon", role: "group", "aria-label": t("other_talon_title") },
    last.cards.map((c) => cardFace(c, lang)),
    el("strong", {}, otherTalonNote(last.chosen, last.cards, last, ctx)));
}

function showSheetDialog() {
  if (!els.overlay || state.over) return;
  const nm = names();
  const events = allEvents();
  const rows = sheetRows(events);
  openDialog(t("sheet_title"),
    el("div", { class: "dialog-body" }, otherTalonBlock(events), sheetTable(rows, nm, getLang(), t("sheet_table_label"), guestMarks()),
      scoreChart(rows, nm, state.header ? state.header.rules : {})),
    [el("button", { type: "button", class: "primary", id: "sheet-close", onclick: closeDialog }, t("continue"))]);
}

function showGameOver() {
  if (!els.overlay) return;
  state.gameOverShown = true;
  const nm = names();
  const evs = allEvents();
  const over = [...evs].reverse().find((e) => e.type === "game_over");
  const winner = over ? over.winner : state.winner;
  const lang = getLang();
  const rows = sheetRows(evs);
  const lines = [];
  if (Array.isArray(winner)) lines.push(t("winners_shared", { names: seatName(winner, nm, lang) }));
  else if (typeof winner === "number") {
    lines.push(winner === state.seat ? t("you_won") : t("winner_is", { name: seatName(winner, nm, lang) }));
  }
  if (over && Array.isArray(over.scores)) {
    lines.push(t("final_scores", { scores: over.scores.map((v, s) => `${seatName(s, nm, lang)} ${v}`).join(", ") }));
  }
  if (over && Array.isArray(over.settlement)) {
    const items = over.settlement.map((a, s) => (a ? t("owes", { name: seatName(s, nm, lang), n: a }) : null)).filter(Boolean);
    lines.push(t("settlement", { items: items.length ? items.join(", ") : t("nobody_owes") }));
  }
  openDialog(t("game_over_title"),
    el("div", { class: "dialog-body" }, lines.map((l) => el("p", { class: "big" }, l)),
      site.gameOverBox(), otherTalonBlock(evs),
      sheetTable(rows, nm, lang, t("sheet_table_label"), guestMarks()), scoreChart(rows, nm, state.header ? state.header.rules : {})),
    [el("a", { class: "button primary", href: "/" }, t("to_lobby")),
      el("a", { class: "button", href: `/replay/${encodeURIComponent(state.snapshot?.id ?? tableId)}` }, t("open_replay")),
      el("a", { class: "button", href: "/history" }, t("nav_history")),
      el("button", { type: "button", onclick: closeDialog }, t("close"))]);
}

// ------------------------------------------------------------------ keyboard

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  const typing = target instanceof HTMLElement && (target.closest("input, textarea, select") !== null);
  if (els.overlay.open) {
    if (e.key === "Escape") closeDialog();
    return;
  }
  if (typing) {
    if (e.key === "Escape") target.blur();
    return;
  }
  if (handleArrows(e, els.board)) {
    e.preventDefault();
    return;
  }
  if (e.key === "Escape" && state.pendingDeclare) {
    state.pendingDeclare = null;
    render();
    return;
  }
  const actions = [...els.board.querySelectorAll(".actions button[data-key]")];
  if (/^[1-9]$/.test(e.key) && actions.length) {
    const b = actions.find((x) => x.dataset.key === e.key);
    if (b && !b.disabled) {
      e.preventDefault();
      b.focus();
      b.click();
    }
    return;
  }
  const idle = target === document.body || target === document.documentElement || target === null;
  if (idle && (e.key === "Enter" || e.key === " ")) {
    const first = els.board.querySelector(".actions button:not([disabled])") ?? els.board.querySelector(".hand button.playable");
    if (first) {
      e.preventDefault();
      first.focus();
    }
    return;
  }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "ArrowUp" || e.key === "ArrowDown") {
    const card = els.board.querySelector(".hand button.playable") ?? els.board.querySelector(".hand button, .actions button");
    if (card) {
      e.preventDefault();
      card.focus();
    }
    return;
  }
  if (e.key === "H" && e.shiftKey) {
    document.getElementById("hint-button")?.click();
    return;
  }
  if (e.key === "L" && e.shiftKey) {
    state.showLastTrick = !state.showLastTrick;
    render();
    return;
  }
  if (e.key === "/" || (e.key.length === 1 && /[0-9a-zа-яё+]/i.test(e.key) && state.seat !== null)) {
    const input = document.getElementById("move-input");
    if (input && !els.command.hidden) {
      e.preventDefault();
      input.focus();
      if (e.key !== "/") input.value += e.key;
    }
  }
}

// ------------------------------------------------------------------ start

/** The seconds the clock's running turn has left now (null: none runs). */
function runningLeft(c) {
  return c && typeof c.left === "number" && c.seat !== null ? c.left - (Date.now() - c.at) / 1000 : null;
}

function tickClock() {
  const c = state.clock;
  const running = runningLeft(c);
  for (const node of document.querySelectorAll("[data-clock-seat]")) {
    const seat = Number(node.dataset.clockSeat);
    const game = c && Array.isArray(c.remaining);
    const left = running !== null && c.seat === seat ? running : game ? c.remaining[seat] : null;
    if (left === null || left === undefined) {
      node.textContent = "";
      continue;
    }
    node.textContent = game ? t("clock_game", { t: clockText(left) }) : t("clock_left", { s: Math.max(0, Math.ceil(left)) });
    node.classList.toggle("low", c.seat === seat && left <= 10);
    node.classList.toggle("running", c.seat === seat);
  }
  warnClock(c, running);
}

/** Said once (the toast's live region) when my own clock passes 30 and 10 seconds left. */
function warnClock(c, running) {
  if (running === null || c.seat !== state.seat || state.seat === null) return;
  for (const mark of [30, 10]) {
    const key = `${c.version}:${mark}`;
    if (running <= mark && c.left > mark && !state.clockWarned.has(key)) {
      if (state.clockWarned.size > 20) state.clockWarned.clear();
      state.clockWarned.add(key);
      announce(t("clock_warn", { s: mark }));
    }
  }
}

async function refreshSeats() {
  try {
    const info = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    if (Array.isArray(info.seats)) state.seats = info.seats;
    if (info.header && !state.header) state.header = info.header;
    render();
  } catch (e) {
    if (e.status === 404) {
      setConn("gone");
      showError(t("table_not_found"));
    }
  }
}

async function start() {
  mountHeader("table");
  layout();
  document.addEventListener("keydown", onKey);
  state.texts = await loadTexts(getLang());
  onLangChange(async (lang) => {
    layout();
    render();
    renderSheet();
    renderChat();
    setConn(state.connected ? "online" : "connecting");
    state.texts = await loadTexts(lang);
    renderLog();
  });
  render();
  await refreshSeats();
  site.setup({ tableId, send, seat: () => state.seat, names, token: () => stored()?.token ?? null,
    over: () => state.over });
  await currentPlayer(); // the kept tokens are forgotten if they are another player's
  if (!stored()) await takeBackSeat();
  document.addEventListener("freeze", onFreeze);
  document.addEventListener("resume", onResume);
  connect();
  setInterval(tickClock, 500);
  setInterval(() => {
    if (!state.connected) return;
    if (state.seats.some((x) => x.kind !== "bot" && !x.taken)) refreshSeats();
  }, 5000);
}

start();
