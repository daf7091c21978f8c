// What every page shares: building DOM safely, the JSON API, the server's message
// catalogue (/api/texts: the same words as the terminal), event lines, the page header.
// Text from outside (player names, chat, server messages) only ever goes in as text nodes.

import { t, getLang, setLang, onLangChange, applyStatic } from "./i18n.js";
import { cardLabel, parseCard } from "./cards.js";
import { registerWorker } from "./app_worker.js";
import { format as renderTemplate, seatName as grammarSeatName, seatForms, moveWords } from "./grammar.js";

/** el("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child...); nested
 * lists of children are flattened at any depth, as {@link clear} does (a name and its
 * marks are one list among others). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    // through the CSSOM: a style attribute is inline style, which the CSP refuses
    else if (k === "style") node.style.cssText = String(v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Empty `node`, then put `children` in (nested lists flattened, null and false left out,
 * strings as text). */
export function clear(node, ...children) {
  node.replaceChildren();
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

function csrfToken() {
  // over https the cookie is __Host-thousand_csrf (server/web_security.py)
  const m = /(?:^|;\s*)(?:__Host-)?thousand_csrf=([^;]*)/.exec(typeof document !== "undefined" ? document.cookie || "" : "");
  return m ? decodeURIComponent(m[1]) : null;
}

let mePromise = null;

// The name a deleted account's games keep (thousand.server.store.accounts.DELETED_NAME:
// the store holds one name, in Russian; no account can take it): shown in the page's language.
const DELETED_NAME = "удалённый игрок";

/** A player's name as a page shows it: a deleted account's in the page's language. */
export function shownName(name) {
  return name === DELETED_NAME ? t("deleted_player") : name;
}

/** The browser's player (GET /api/me: a guest the first time, or the account signed in),
 * asked once per page; `fresh` asks again (after signing in or out). Null when the
 * server cannot say. */
export function currentPlayer(fresh = false) {
  if (fresh || !mePromise) mePromise = api("/api/me").then(keepSeatsOf, () => null);
  return mePromise;
}

/** Where a guest's last typed name is kept in the browser (the forms offer it again). */
export const NAME_KEY = "thousand.name";

/** The name a form asks for, filled for the player it knows (`me`, from currentPlayer):
 * an account's own name, fixed (his seats carry it: asking again only invites a typo),
 * else a guest's name (his own, or the one last typed in this browser), which he may
 * change. `typed` keeps what was being typed when the form is drawn again. One input
 * for the lobby, the invite's join form and the tournament forms. */
export function nameInput(id, me, typed = null) {
  const player = me && me.player;
  const account = player && player.kind === "account" && player.name ? player.name : null;
  const value = account ?? (typed || null) ?? (player && player.name) ?? localStorage.getItem(NAME_KEY) ?? "";
  const input = el("input", { id, type: "text", maxlength: "32", required: true, value,
    autocomplete: "nickname", readonly: account ? true : null, class: account ? "fixed-name" : null });
  if (!account) input.addEventListener("change", () => localStorage.setItem(NAME_KEY, input.value.trim()));
  return input;
}

/** A number as the page's language writes it: «107,7» in Russian, "107.7" in English
 * (one decimal at most); every page's fractions go through here, so that a comma never
 * stands beside a point. */
export function fmtNumber(n, digits = 1) {
  return Number(n).toLocaleString(getLang() === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: digits });
}

/** A game's players (`names`, by seat), each with a link to his page where the seat had
 * a player (`ids`), but the seat `skip` (the page's own player). A bot's page is its
 * level's, shared by every bot of it: a bot's name stays plain and the link is its
 * level's, by that name («Боря (любитель)»). /history and the player pages both. */
export function playerLinks(names, ids, skip = null, guests = []) {
  const link = (id, words) => el("a", { class: "player-link", href: `/p/${encodeURIComponent(id)}` }, words);
  const one = (name, id, seat) => (!id || seat === skip ? [name]
    : id.startsWith("bot:") ? [name, " (", link(id, levelName(id.slice(4))), ")"] : [link(id, name)]);
  return names.flatMap((name, i) => [i ? ", " : null, ...one(shownName(name), ids[i], i),
    guests[i] ? [" ", guestTag()] : null]);
}

/** The mark beside a guest's name, wherever a name is shown: a person without an account,
 * whose name is nobody's own, must not pass for an account of a name like it (issue 27).
 * The word is read out; the title says what it means. */
export function guestTag() {
  return el("span", { class: "tag guest", title: t("guest_title") }, t("guest_tag"));
}

const PLAYER_KEY = "thousand.player";

/** Forget every seat token this browser keeps (thousand.seat.<table>): after signing
 * out nobody at this computer plays for the one who left (docs/server.md "Players"). */
export function forgetSeats() {
  try {
    const keys = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("thousand.seat.")) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
    localStorage.removeItem(PLAYER_KEY);
  } catch (e) {
    // no storage: nothing kept
  }
}

/** The seat tokens kept here are one player's: when the browser's player is another (his
 * session ended, here or by «sign out everywhere» elsewhere, or another signed in), they
 * are forgotten before any page uses them. */
function keepSeatsOf(me) {
  const id = me && me.player ? me.player.id : null;
  try {
    const kept = localStorage.getItem(PLAYER_KEY);
    if (id && kept && kept !== id) forgetSeats();
    if (id) localStorage.setItem(PLAYER_KEY, id);
  } catch (e) {
    // no storage: nothing kept
  }
  return me;
}

/** Call the JSON API; an error answer ({"error": {"code", "message"}}) throws ApiError. */
export async function api(path, { method = "GET", body, raw = false, headers = {} } = {}) {
  const opts = { method, headers: { Accept: "application/json", ...headers } };
  // CSRF (docs/server.md "Players"): a state-changing request carries the session's
  // double-submit token, the readable cookie thousand_csrf, as X-CSRF-Token
  const csrf = method !== "GET" && method !== "HEAD" ? csrfToken() : null;
  if (csrf) opts.headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = raw ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "network", t("err_network"));
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const err = data && (data.error || data.detail);
    if (err && typeof err === "object" && !Array.isArray(err)) {
      throw new ApiError(res.status, err.code, err.message);
    }
    throw new ApiError(res.status, "http", typeof err === "string" ? err : `HTTP ${res.status}`);
  }
  return data;
}

// ------------------------------------------------------------------ the catalogue

const catalogues = {};
const loaded = {}; // the catalogues that have come, for the words looked up at once

/** The server's message catalogue for a language (/api/texts), fetched once. */
export async function loadTexts(lang = getLang()) {
  if (!catalogues[lang]) {
    catalogues[lang] = api(`/api/texts?lang=${lang}`).catch(() => ({})).then((cat) => {
      loaded[lang] = cat;
      return cat;
    });
  }
  return catalogues[lang];
}

/** A preset by its name for people (the catalogue's preset_titles: «домашние правила»,
 * not `house`), once loadTexts has brought it; else as it is written. */
export function presetName(preset, lang = getLang()) {
  const names = loaded[lang] && loaded[lang].preset_titles;
  return (names && names[preset]) || String(preset ?? "");
}

// A catalogue entry may be a template, or [English, Russian] as in thousand.words.catalogue.
function pick(entry, lang) {
  if (entry === undefined || entry === null) return undefined;
  if (typeof entry === "string") return entry;
  if (Array.isArray(entry)) return lang === "ru" ? entry[1] : entry[0];
  if (typeof entry === "object") return entry[lang] ?? entry.en;
  return String(entry);
}

function section(cat, name) {
  return (cat && (cat[name] || (cat.texts && cat.texts[name]))) || {};
}

/** A catalogue template with its values (thousand.words.grammar.render: `{f:case}`, `{f:A|B}`,
 * `{f:#one|few|many}`); `forms` the names' cases from the server. */
export function format(template, values, lang = getLang(), cat = null, forms = null) {
  return renderTemplate(template, values, lang, cat, forms);
}

/** A seat by its player's name ("игрок N"/"seat N" if unknown); the seat `reader` (the
 * page's own) is the catalogue's `you` ("Вы"/"You"). */
export function seatName(seat, names, lang = getLang(), reader = null, you = null) {
  return grammarSeatName(seat, names, lang, reader, you);
}

export function levelName(level) {
  const people = loaded[getLang()] && loaded[getLang()].bot_level_names;
  if (people && people[level]) return people[level];
  const names = {
    random: t("level_random"),
    beginner: t("level_beginner"),
    heuristic: t("level_heuristic"),
    strong: t("level_strong"),
    expert: t("level_expert"),
  };
  return names[level] ?? String(level ?? "");
}

export function suitWord(suit, lang = getLang(), cat = null) {
  const idx = "SCDH".indexOf(suit);
  const list = cat && (Array.isArray(cat.suit_names) ? cat.suit_names : cat.suits);
  if (idx >= 0 && Array.isArray(list) && list[idx]) return list[idx];
  const own = { ru: ["пики", "трефы", "бубны", "черви"], en: ["spades", "clubs", "diamonds", "hearts"] };
  return idx >= 0 ? own[lang === "ru" ? "ru" : "en"][idx] : t("no_trump");
}

// The same choice of template as thousand.words.catalogue.event_key.
const SEAT_FIELDS = {
  seat: "name", to_seat: "to", seller: "seller", leader: "leader", dealer: "dealer",
  opener: "opener", declarer: "declarer", redeal_by: "redeal_by",
};

export function eventKey(ev, events) {
  const kind = ev.type;
  let variant = null;
  if (kind === "deal_started" && ev.golden) variant = "golden";
  else if (kind === "pass" && (ev.phase === "buy" || ev.phase === "redeal offer")) {
    variant = ev.phase.replace(" ", "_");
  } else if (kind === "declarer") variant = ev.dark ? "dark" : ev.golden ? "golden" : null;
  else if (kind === "talon" && ev.cards === null) variant = "hidden";
  else if ((kind === "give" || kind === "discard") && ev.card === null) variant = "hidden";
  else if (kind === "declaration" && ev.kind !== "marriage") variant = ev.kind;
  else if (kind === "deal_scored") {
    if (ev.outcome === "played" && ev.declarer !== null && ev.declarer !== undefined) {
      variant = ev.made ? "made" : "failed";
    } else if (ev.outcome === "conceded" || ev.outcome === "redeal") variant = ev.outcome;
  } else if (kind === "penalty") variant = ev.reason;
  else if (kind === "game_over" && Array.isArray(ev.winner)) variant = "shared";
  const key = variant ? `${kind}:${variant}` : kind;
  return events && events[key] !== undefined ? key : kind;
}

/** One line for a table event, from the catalogue's templates (thousand.words.catalogue.event_text):
 * `reader` the seat the page shows (spoken to as "Вы"/"You"), `forms` the names' case
 * forms from the server ({name: grammar.name_forms(name, lang)}). */
export function eventText(ev, names, cat, lang = getLang(), reader = null, forms = null) {
  const events = section(cat, "events");
  const key = eventKey(ev, events);
  let template = pick(events[key], lang);
  if (template === undefined) template = `${ev.type}`;
  const allForms = { ...(forms || {}) };
  const who = (s) => {
    if (typeof s === "number" && s !== reader && !(names && s >= 0 && s < names.length && names[s])) {
      Object.assign(allForms, seatForms(s, lang));
    }
    return seatName(s, names, lang, reader, cat && cat.you);
  };
  const hidden = pick(events.hidden_card, lang) ?? "?";
  const card = (c) => (typeof c === "string" ? cardLabel(c, lang) : hidden);
  const values = {};
  for (const [k, v] of Object.entries(ev)) if (v === null || typeof v !== "object") values[k] = v;
  for (const [field, word] of Object.entries(SEAT_FIELDS)) {
    if (field in ev) values[word] = who(ev[field]);
  }
  if ("winner" in ev) values.winner = who(ev.winner);
  if ("card" in ev) values.card = card(ev.card);
  if (Array.isArray(ev.cards)) {
    values.cards = ev.cards.map((c) => (c && typeof c === "object" ? card(c.card) : card(c))).join(" ");
  } else if ("cards" in ev) values.cards = hidden;
  for (const f of ["suit", "trump"]) {
    if (f in ev) values[f] = ev[f] ? suitWord(ev[f], lang, cat) : pick(events.no_trump, lang) ?? t("no_trump");
  }
  if (Array.isArray(ev.scores)) values.scores = ev.scores.map((v, s) => `${who(s)} ${v}`).join(", ");
  if (Array.isArray(ev.points) && typeof ev.declarer === "number") values.taken = ev.points[ev.declarer];
  let text = format(template, values, lang, cat, allForms);
  if (ev.type === "game_over" && Array.isArray(ev.settlement)) {
    const item = pick(events.settlement_item, lang) ?? "{name}: {amount}";
    const items = ev.settlement
      .map((a, s) => (a ? format(item, { name: who(s), amount: a }, lang, cat, allForms) : null))
      .filter(Boolean);
    if (items.length) {
      text += " " + format(pick(events.settlement, lang) ?? "{items}", { items: items.join(", ") }, lang, cat, allForms);
    }
  }
  return text;
}

/** Why a move is illegal in words (thousand.words.catalogue.illegal_text), or null when the
 * catalogue has no words for it. */
function illegalText(code, params, names, cat, lang, reader, forms) {
  const tmpl = pick(section(cat, "illegal")[code], lang);
  if (!tmpl) return null;
  const allForms = { ...(forms || {}) };
  const who = (s) => {
    const seat = typeof s === "number" ? s : -1;
    if (seat !== reader && !(names && seat >= 0 && seat < names.length && names[seat])) {
      Object.assign(allForms, seatForms(seat, lang));
    }
    return seatName(seat, names, lang, reader, cat && cat.you);
  };
  const values = { ...params };
  const reasons = section(cat, "reasons");
  for (const [k, v] of Object.entries(params)) {
    if (k === "card" && typeof v === "string") values[k] = cardLabel(parseCard(v) ?? v, lang);
    else if ((k === "suit" || k === "led") && typeof v === "string") values[k] = suitWord(v, lang, cat);
    else if (k === "why" || k === "extra") values[k] = pick(reasons[String(v)], lang) ?? "";
    else if (k === "what" && typeof v === "string") values[k] = moveWords(v, lang, section(cat, "move_words"));
  }
  if (code === "wrong_phase") {
    const task = pick(section(cat, "tasks")[params.task ?? "nothing"], lang) ?? "";
    const now = pick(section(cat, "whose_turn").now, lang);
    const name = who(params.seat);
    values.now = now
      ? format(now, { who: name, task }, lang, cat, allForms)
      : (lang === "ru" ? `${name}: ${task}` : `${name} to ${task}`);
  }
  return format(tmpl, values, lang, cat, allForms);
}

/** An error from the table in words: the catalogue's (with the reader spoken to), else
 * the server's text. */
export function errorText(msg, names, cat, lang = getLang(), reader = null, forms = null) {
  const serverText = msg.text && typeof msg.text === "object" ? (msg.text[lang] || msg.text.en) : null;
  const p = msg.params || {};
  switch (msg.code) {
    case "illegal_move": {
      let why = null;
      try {
        why = illegalText(p.code, p.params || {}, names, cat, lang, reader, forms);
      } catch (e) {
        why = null;
      }
      why = why ?? serverText;
      if (!why) return t("err_illegal", { move: p.move ?? "" });
      return t("err_illegal_why", { why });
    }
    case "not_your_turn":
      return t("err_not_your_turn", { name: seatName(p.seat, names, lang) });
    case "stale_version":
      return t("err_stale");
    case "game_over":
      return t("err_game_over");
    case "no_such_seat":
      return t("err_no_such_seat");
    case "malformed":
      return t("err_malformed", { why: p.why ?? msg.message ?? "" });
    case "waiting":
      return t("err_waiting");
    case "spectator":
      return t("err_spectator");
    case "rate_limited": {
      const wait = { seconds: p.seconds ?? 1 };
      if (p.limit === "move") return t("limit_move", wait);
      if (p.limit === "chat") return t("limit_chat", wait);
      if (p.limit === "hint") return t("limit_hint", wait);
      if (p.limit === "sync") return t("limit_sync", wait);
      return t("err_rate_limited", wait);
    }
    case "abandoned":
      return t("err_abandoned");
    case "filtered": // a chat line with a word of the site's filter (docs/server.md "Moderation")
      return t("err_filtered");
    case "chat_muted":
      return t("err_chat_muted", { until: fmtDate(p.until) });
    case "adjourned":
      return t("err_adjourned");
    case "busy":
      return t("err_busy");
    case "hint_failed":
      return t("err_hint_failed");
    case "bad_token":
      return t("token_refused");
    case "no_such_table":
      return t("table_not_found");
    case "closed":
      return t("err_page_text_closed");
    default:
      return serverText || msg.message || t("err_unknown", { code: msg.code ?? "?" });
  }
}

// ------------------------------------------------------------------ typed moves

// The words a player may type come from the server (thousand.words.vocabulary, served in the
// catalogue as `typed`): the terminal reads them too, and these steps are those of
// thousand.words.vocabulary.parse_typed, which tests/test_vocabulary.py holds them to.

/** Typed text as it is compared: lower case, «ё» as «е», one space between words. */
function normalise(text) {
  return String(text ?? "").toLowerCase().replace(/ё/g, "е").split(/\s+/).filter(Boolean).join(" ");
}

/** A card as typed ("KH", "10h", "к♥", "Тб") in record notation, or null. */
function typedCard(text, vocab) {
  const t = text.trim().toUpperCase().replace(/Ё/g, "Е");
  const rank = vocab.ranks[t.slice(0, -1)];
  const suit = vocab.suits[t.slice(-1)];
  return rank && suit ? rank + suit : null;
}

const kindLegal = (legal, prefix) => legal.some((m) => m.startsWith(prefix));

/** A typed card move ("Тч", "Кч+", "отдать 9п"): while cards are given or discarded, a
 * card is what this phase does with it; elsewhere a give or discard word keeps its move. */
function cardMove(text, legal, vocab) {
  let word = null;
  const space = text.indexOf(" ");
  const head = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? "" : text.slice(space + 1);
  for (const [kind, words] of Object.entries(vocab.give_words)) {
    if (words.includes(head) && rest) {
      word = kind;
      text = rest;
    }
  }
  const declare = text.endsWith("+");
  const card = typedCard(declare ? text.slice(0, -1) : text, vocab);
  if (!card) return null;
  if (kindLegal(legal, "discard ")) return `discard ${card}`;
  if (kindLegal(legal, "give ")) return `give ${card}`;
  if (word) return `${word} ${card}`;
  return declare ? `${card}+` : card;
}

const own = (table, key) => Object.prototype.hasOwnProperty.call(table, key);

/** The move typed text asks for in record notation, or null (thousand.words.vocabulary.
 * parse_typed): `legal` only settles what the text leaves open (a bid or a contract; a
 * card played, given or discarded), `vocab` is the catalogue's `typed`. */
export function typedMove(text, legal, vocab) {
  const low = normalise(text);
  if (!low) return null;
  if (own(vocab.words, low)) return vocab.words[low];
  if (/^[0-9]+$/.test(low)) {
    if (low.length > vocab.digits) return low; // no bid is that high: the table refuses it
    const number = String(parseInt(low, 10));
    return kindLegal(legal, "contract ") ? `contract ${number}` : number;
  }
  const contract = new RegExp(`^(?:${vocab.contract_words.join("|")}) ?([0-9]+)$`).exec(low);
  if (contract) {
    const digits = contract[1];
    return `contract ${digits.length > vocab.digits ? digits : parseInt(digits, 10)}`;
  }
  return cardMove(low, legal, vocab);
}

const CARD_MOVE = /^(?:(?:give|discard) )?[9JQKTA][SCDH]\+?$/;

/** A move typed as in the terminal ("AH", "10s", "КЧ+", "пас", "105") for the page's
 * move box: {move} or {error: i18n key}.  A card that is not legal now is sent anyway
 * while cards are played, given or discarded, so that the table says why; another move
 * that is not legal now is refused here. */
export function parseTyped(text, legal, vocab) {
  if (!String(text ?? "").trim()) return { error: "typed_empty" };
  const move = vocab ? typedMove(text, legal, vocab) : null;
  if (move === null) return { error: "typed_unknown" };
  if (legal.includes(move)) return { move };
  if (CARD_MOVE.test(move) && legal.some((m) => CARD_MOVE.test(m))) return { move };
  return { error: "typed_not_now" };
}

// ------------------------------------------------------------------ page chrome

const NAV = [
  ["/", "nav_lobby", () => t("nav_lobby")],
  ["/history", "nav_history", () => t("nav_history")],
  ["/leaderboard", "nav_leaderboard", () => t("nav_leaderboard")],
  ["/daily", "nav_daily", () => t("nav_daily")],
  ["/tournaments", "nav_tournaments", () => t("nav_tournaments")],
  ["/friends", "nav_friends", () => t("nav_friends")],
  ["/replay", "nav_replay", () => t("nav_replay")],
];

// The colours' switch (theme.js, loaded first in every page's head, keeps the choice
// and colours the page): as the device says, light, or dark.
const THEMES = [
  ["system", () => t("theme_system")],
  ["light", () => t("theme_light")],
  ["dark", () => t("theme_dark")],
];

function themeSwitch() {
  const theme = typeof window !== "undefined" ? window.thousandTheme : undefined;
  if (!theme) return null;
  const chosen = theme.chosen();
  return el("select", {
    class: "theme", id: "theme-select", "aria-label": t("theme_label"), title: t("theme_label"),
    onchange: (e) => theme.choose(e.target.value),
  }, THEMES.map(([value, label]) => el("option", { value, selected: value === chosen }, label())));
}

/** The header: the name of the game, the pages, the language and colours' switches; and
 * the service worker's registration, which every page asks for (app_worker.js). */
export function mountHeader(active) {
  registerWorker();
  let header = document.querySelector("header.top");
  if (!header) {
    header = el("header", { class: "top" });
    document.body.prepend(header);
  }
  const render = () => {
    const lang = getLang();
    clear(header, 
      el("a", { class: "brand", href: "/" }, el("span", { "aria-hidden": "true" }, "♠♥ "), t("app_name")),
      el("nav", { "aria-label": t("nav_label") },
        NAV.map(([href, key, label]) => el("a", {
          href, "aria-current": active === key ? "page" : null,
        }, label()))),
      // the player: his name (a link to his account page), or «Войти» for a guest
      el("a", {
        class: "account", href: "/account", "aria-current": active === "account" ? "page" : null,
      }, accountLabel()),
      // the other language's name in that language: what it shows is what it is called
      el("button", {
        type: "button", class: "lang", lang: lang === "ru" ? "en" : "ru",
        onclick: () => setLang(lang === "ru" ? "en" : "ru"),
      }, t("lang_switch_label")),
      themeSwitch(),
    );
    document.documentElement.lang = lang;
    applyStatic(document);
  };
  render();
  headerRenders.push(render);
  onLangChange(render);
  currentPlayer().then((me) => {
    headerPlayer = me && me.player ? me.player : null;
    render();
  });
}

let headerPlayer = null;

function accountLabel() {
  const p = headerPlayer;
  if (p && p.kind === "account") return p.name;
  if (p && p.name) return t("account_guest_named", { name: p.name });
  return t("account_sign_in");
}

/** The header again after the player changed (signed in, signed out). */
export async function refreshHeaderPlayer() {
  const me = await currentPlayer(true);
  headerPlayer = me && me.player ? me.player : null;
  for (const f of headerRenders) f();
}

const headerRenders = [];

/** A short-lived message in the page's live region. */
export function announce(text, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast ${kind}` }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 7000 : 4000);
  while (box.children.length > 4) box.firstChild.remove();
}

export function fmtDate(value) {
  if (!value) return "";
  const d = new Date(typeof value === "number" ? value * 1000 : value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString(getLang() === "ru" ? "ru-RU" : "en-GB", {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
}

export { t, getLang, setLang, onLangChange };
