// The lobby (/): the open tables (refreshed), joining a free seat or watching, the tables
// this browser holds a seat at (back to them; the creator may close his for good), and
// the form that lays a new table: a preset, the options grouped and explained
// (/api/rules, values in words), each seat a person or a bot of a level, a time control or a move clock.

import { el, clear, api, mountHeader, announce, fmtDate, levelName, loadTexts, presetName, currentPlayer, nameInput as nameField,
  NAME_KEY, guestTag } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { quickPlayBox } from "./quickplay.js";
import { timeControlField, clockBody, clockLabel } from "./time_control.js";
import { presenceBox, redrawPresence } from "./presence.js";
import { explainInWords, presetsInWords } from "./option_words.js";

const REFRESH_MS = 4000;
const LEVELS = ["random", "beginner", "heuristic", "strong", "expert"];

const state = {
  rules: null,
  me: null, // the browser's player (an account's name fills the form)
  preset: "classic",
  values: {}, // option -> value shown in the form
  seats: [
    { kind: "human" },
    { kind: "bot", level: "heuristic" },
    { kind: "bot", level: "heuristic" },
    { kind: "bot", level: "heuristic" },
  ],
  control: "",
  clockOn: false,
  clock: 60,
  open: true,
  tables: [],
  tablesError: null,
  mine: [], // the tables this browser holds a seat at (GET /api/tables/{id} each)
  closing: null, // the table whose closing waits for a yes
};
const MINE_MAX = 20;

function botNames() {
  return t("bot_names").split(",");
}

function token(tableId) {
  try {
    const s = JSON.parse(localStorage.getItem(`thousand.seat.${tableId}`) ?? "null");
    return s && s.token ? s : null;
  } catch (e) {
    return null;
  }
}

// ------------------------------------------------------------------ options

function presetOf(name) {
  return (state.rules?.presets ?? []).find((p) => p.name === name) ?? null;
}

function allOptions() {
  return (state.rules?.groups ?? []).flatMap((g) => g.options ?? []);
}

/** An option's value under a preset (the chosen one unless `p` is given). */
function presetValue(name, p = presetOf(state.preset)) {
  if (p && p.options && name in p.options) return p.options[name];
  const o = allOptions().find((x) => x.name === name);
  return o ? o.default : undefined;
}

function resetValues() {
  state.values = {};
  for (const o of allOptions()) state.values[o.name] = presetValue(o.name);
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** An option's value in words: the catalogue's label for it (/api/rules `labels`), else
 * the value itself. */
function valueWords(o, v) {
  const i = Array.isArray(o.values) ? o.values.findIndex((x) => same(x, v)) : -1;
  if (i >= 0 && Array.isArray(o.labels) && o.labels[i]) return o.labels[i];
  return valueText(v);
}

function valueText(v) {
  if (v === null || v === undefined) return t("opt_none");
  if (v === true) return t("opt_yes");
  if (v === false) return t("opt_no");
  if (Array.isArray(v)) return v.join(",");
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}:${x}`).join(",");
  return String(v);
}

function parseValue(text, option) {
  const s = String(text).trim();
  const kind = String(option?.kind ?? "");
  if (s === "" || s.toLowerCase() === "none") return null;
  if (kind === "ints" || Array.isArray(option?.default)) {
    return s.split(/[,;\s]+/).filter(Boolean).map((x) => (/^-?\d+$/.test(x) ? Number.parseInt(x, 10) : x));
  }
  if (/^-?\d+$/.test(s)) return Number.parseInt(s, 10);
  if (s === "true") return true;
  if (s === "false") return false;
  if (kind === "marriages" || (option && option.default && typeof option.default === "object")) {
    const out = {};
    for (const part of s.split(",")) {
      const [k, v] = part.split(":").map((x) => x.trim());
      if (k) out[k.toUpperCase()] = /^-?\d+$/.test(v ?? "") ? Number.parseInt(v, 10) : v;
    }
    return out;
  }
  return s;
}

/** The explanation in words (option_words.js), and the presets' values under it. */
function explainText(o) {
  return [explainInWords(o, allOptions(), valueWords),
    el("span", { class: "in-presets" }, presetsInWords(o, state.rules?.presets ?? [], (p) => presetValue(o.name, p), valueWords))];
}

function optionControl(o) {
  const id = `opt-${o.name}`;
  const value = state.values[o.name];
  const kind = String(o.kind ?? "").toLowerCase();
  const describedBy = `${id}-explain`;
  let control;
  if (kind === "bool") {
    control = el("input", { id, name: o.name, type: "checkbox", checked: value ? true : null,
      "aria-describedby": describedBy });
    control.addEventListener("change", () => {
      state.values[o.name] = control.checked;
      markChanged(o.name, control);
    });
  } else if (Array.isArray(o.values) && o.values.length) {
    control = el("select", { id, name: o.name, "aria-describedby": describedBy },
      o.values.map((v) => el("option", { value: JSON.stringify(v), selected: same(v, value) ? true : null }, valueWords(o, v))));
    control.addEventListener("change", () => {
      state.values[o.name] = JSON.parse(control.value);
      markChanged(o.name, control);
    });
  } else if (kind.startsWith("bool") || typeof o.default === "boolean") {
    control = el("input", { id, name: o.name, type: "checkbox", checked: value ? true : null,
      "aria-describedby": describedBy });
    control.addEventListener("change", () => {
      state.values[o.name] = control.checked;
      markChanged(o.name, control);
    });
  } else {
    const numeric = kind === "int" || typeof o.default === "number";
    const hint = Array.isArray(o.words) ? `${t("opt_number")} / ${o.words.join(" / ")}` : t("opt_none");
    control = el("input", { id, name: o.name, type: "text", inputmode: numeric ? "numeric" : "text",
      value: value === null || value === undefined ? "" : valueText(value),
      placeholder: hint, "aria-describedby": describedBy, size: "16" });
    control.addEventListener("change", () => {
      state.values[o.name] = parseValue(control.value, o);
      markChanged(o.name, control);
    });
  }
  // the option by its title; its identifier (what `thousand play` and the API take) only
  // as the label's tooltip
  const row = el("div", { class: "option", "data-option": o.name },
    el("label", { for: id, title: o.name }, el("span", { class: "opt-title" }, o.title ?? o.name)),
    control,
    el("p", { class: "explain", id: describedBy }, explainText(o)));
  if (!same(value, presetValue(o.name))) row.classList.add("changed");
  return row;
}

function markChanged(name, control) {
  const row = control.closest(".option");
  if (row) row.classList.toggle("changed", !same(state.values[name], presetValue(name)));
  if (name === "players") renderSeats();
}

function changedOptions() {
  const out = {};
  for (const o of allOptions()) {
    const v = state.values[o.name];
    if (v !== undefined && !same(v, presetValue(o.name))) out[o.name] = v;
  }
  return out;
}

function players() {
  const v = state.values.players ?? presetValue("players");
  return [2, 3, 4].includes(v) ? v : 3; // two with the preset two (or players=2)
}

// ------------------------------------------------------------------ the form

let els = {};

function renderForm() {
  const root = els.form;
  clear(root);
  if (!state.rules) {
    root.append(el("p", { class: "muted" }, t("loading")));
    return;
  }
  if (els.quick) clear(els.quick, quickPlayBox(state.rules.presets));
  redrawPresence(); // the challenge form offers the presets now
  const nameInput = nameField("my-name", state.me);
  const presetSelect = el("select", { id: "preset", name: "preset", "aria-describedby": "preset-explain" },
    (state.rules.presets ?? []).map((p) => el("option", { value: p.name, selected: p.name === state.preset ? true : null },
      p.title || presetName(p.name))));
  const presetExplain = el("p", { id: "preset-explain", class: "explain" }, presetOf(state.preset)?.description ?? "");
  presetSelect.addEventListener("change", () => {
    state.preset = presetSelect.value;
    resetValues();
    renderForm();
    document.getElementById("preset")?.focus();
  });
  els.seats = el("fieldset", { class: "seats" });
  const clockBox = el("input", { id: "clock-on", type: "checkbox", checked: state.clockOn ? true : null });
  const clockSecs = el("input", { id: "clock-secs", type: "number", min: "5", max: "3600", step: "5",
    value: String(state.clock), disabled: state.clockOn ? null : true, "aria-label": t("clock_seconds") });
  clockBox.addEventListener("change", () => {
    state.clockOn = clockBox.checked;
    clockSecs.disabled = !clockBox.checked;
  });
  clockSecs.addEventListener("change", () => {
    state.clock = Number.parseInt(clockSecs.value, 10) || 60;
  });
  const openBox = el("input", { id: "open-table", type: "checkbox", checked: state.open ? true : null });
  openBox.addEventListener("change", () => {
    state.open = openBox.checked;
  });
  // each group folded under its title (all of them open are a wall of some forty
  // options); the first open, and any whose option differs from the preset
  const groups = el("details", { class: "options" },
    el("summary", {}, t("options_title"), " ", el("span", { class: "muted" }, t("options_hint"))),
    (state.rules.groups ?? []).map((g, i) => el("details", { class: "group-fold",
      open: i === 0 || (g.options ?? []).some((o) => !same(state.values[o.name], presetValue(o.name))) ? true : null },
    el("summary", {}, g.title ?? ""),
    el("fieldset", { class: "group" }, el("legend", { class: "sr-only" }, g.title ?? ""),
      (g.options ?? []).map(optionControl)))));
  const submit = el("button", { type: "submit", class: "primary big", id: "create-button" }, t("create_table"));
  root.append(
    el("h2", {}, t("new_table")),
    el("div", { class: "field" }, el("label", { for: "my-name" }, t("your_name")), nameInput),
    el("div", { class: "field" }, el("label", { for: "preset" }, t("preset")), presetSelect, presetExplain),
    els.seats,
    timeControlField("time-control", state.control, (v) => { state.control = v; }),
    el("div", { class: "field inline" }, clockBox, el("label", { for: "clock-on" }, t("clock_label")), clockSecs,
      el("span", { class: "muted" }, t("seconds"))),
    el("div", { class: "field inline" }, openBox, el("label", { for: "open-table" }, t("open_table_label"))),
    groups,
    submit,
  );
  renderSeats();
}

function renderSeats() {
  if (!els.seats) return;
  const n = players();
  const defaults = botNames();
  clear(els.seats, el("legend", {}, t("seats_title")));
  for (let i = 0; i < n; i++) {
    const seat = state.seats[i];
    if (i === 0) {
      els.seats.append(el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, t("seat_n", { n: 1 })),
        el("span", {}, t("seat_you"))));
      continue;
    }
    const kind = el("select", { id: `seat-${i}-kind`, "aria-label": t("seat_kind_label", { n: i + 1 }) },
      el("option", { value: "human", selected: seat.kind === "human" ? true : null }, t("seat_person")),
      el("option", { value: "bot", selected: seat.kind === "bot" ? true : null }, t("seat_bot")));
    const level = el("select", { id: `seat-${i}-level`, "aria-label": t("seat_level_label", { n: i + 1 }),
      hidden: seat.kind === "bot" ? null : true },
      LEVELS.map((l) => el("option", { value: l, selected: (seat.level ?? "heuristic") === l ? true : null }, levelName(l))));
    // a bot's name beside its seat, and none beside a person's (he gives his own)
    const botName = el("span", { class: "muted bot-name" }, seat.kind === "bot" ? defaults[i - 1] ?? "" : "");
    kind.addEventListener("change", () => {
      seat.kind = kind.value;
      level.hidden = seat.kind !== "bot";
      botName.textContent = seat.kind === "bot" ? defaults[i - 1] ?? "" : "";
    });
    level.addEventListener("change", () => {
      seat.level = level.value;
    });
    els.seats.append(el("div", { class: "seat-row" },
      el("span", { class: "seat-no" }, t("seat_n", { n: i + 1 })), kind, level, botName));
  }
}

async function createTable(e) {
  e.preventDefault();
  const name = (document.getElementById("my-name")?.value ?? "").trim();
  if (!name) {
    announce(t("name_required"), "error");
    document.getElementById("my-name")?.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  const n = players();
  const defaults = botNames();
  const seats = [];
  for (let i = 0; i < n; i++) {
    const s = state.seats[i];
    if (i === 0) seats.push({ kind: "human", name });
    else if (s.kind === "bot") seats.push({ kind: "bot", level: s.level ?? "heuristic", name: defaults[i - 1] ?? `Bot ${i}` });
    else seats.push({ kind: "human" });
  }
  const body = {
    preset: state.preset,
    options: changedOptions(),
    seats,
    ...clockBody(state.control, state.clockOn, state.clock),
    open: state.open,
  };
  const button = document.getElementById("create-button");
  if (button) button.disabled = true;
  try {
    const r = await api("/api/tables", { method: "POST", body });
    localStorage.setItem(`thousand.seat.${r.table}`, JSON.stringify({ seat: r.seat ?? 0, token: r.token }));
    location.href = r.url || `/t/${encodeURIComponent(r.table)}`;
  } catch (err) {
    announce(t("create_failed", { why: err.message }), "error");
    if (button) button.disabled = false;
  }
}

// ------------------------------------------------------------------ open tables

async function refreshTables() {
  try {
    const r = await api("/api/tables");
    state.tables = Array.isArray(r.tables) ? r.tables : [];
    state.tablesError = null;
  } catch (e) {
    state.tablesError = e.message;
  }
  await refreshMine();
  renderTables();
}

/** The ids of the tables whose seat token this browser keeps. */
function heldTables() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("thousand.seat.")) out.push(key.slice("thousand.seat.".length));
    }
  } catch (e) {
    return [];
  }
  return out.slice(0, MINE_MAX);
}

/** The tables this browser sits at and that still go on; a table the server no longer has
 * (closed, or never kept) is forgotten. */
async function refreshMine() {
  const found = await Promise.all(heldTables().map(async (id) => {
    try {
      return await api(`/api/tables/${encodeURIComponent(id)}`);
    } catch (e) {
      if (e.status === 404) localStorage.removeItem(`thousand.seat.${id}`);
      return null;
    }
  }));
  state.mine = found.filter((x) => x && x.status !== "over" && token(x.table));
  state.mine.sort((a, b) => String(b.created).localeCompare(String(a.created)));
}

function presetWords(name) {
  return presetName(name) || presetOf(name)?.title || String(name ?? "");
}

/** The creator (the first person's seat) may close his table: two steps, a yes first. */
async function closeTable(id) {
  const held = token(id);
  if (!held) return;
  try {
    await api(`/api/tables/${encodeURIComponent(id)}/close`, { method: "POST", body: { token: held.token } });
    localStorage.removeItem(`thousand.seat.${id}`);
    announce(t("close_done"));
  } catch (err) {
    announce(t("close_failed", { why: err.message }), "error");
  }
  state.closing = null;
  await refreshTables();
  document.querySelector("#mine h2")?.focus();
}

function renderMine() {
  const root = els.mine;
  if (!root) return;
  const focusKey = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.fk : null;
  root.hidden = !state.mine.length;
  clear(root, el("h2", { tabindex: "-1" }, t("my_tables")));
  if (!state.mine.length) return;
  const ul = el("ul", { class: "table-list" });
  for (const tb of state.mine) {
    const held = token(tb.table);
    const humans = (tb.seats ?? []).filter((s) => s.kind === "human");
    const creator = humans.length ? humans[0].seat : null;
    const id = tb.table;
    const asking = state.closing === id;
    ul.append(el("li", { class: "table-card mine", "data-table": id },
      el("div", { class: "table-head" },
        el("strong", {}, presetWords(tb.preset)), " · ", statusWord(tb.status),
        held ? ` · ${t("my_seat_n", { n: held.seat + 1 })}` : "",
        tb.created ? el("span", { class: "muted" }, ` · ${fmtDate(tb.created)}`) : ""),
      el("ul", { class: "seat-list" }, (tb.seats ?? []).map((s) => el("li", {}, s.name ?? "",
        s.guest ? [" ", guestTag()] : null))),
      asking ? el("p", { class: "close-ask", role: "alert" }, t("close_confirm")) : null,
      el("div", { class: "table-actions" },
        el("a", { class: "button primary", href: `/t/${encodeURIComponent(id)}` }, t("back_to_table")),
        held && held.seat === creator && !asking && tb.status !== "adjourned"
          ? el("button", { type: "button", class: "danger", "data-fk": `close-${id}`,
            onclick: () => {
              state.closing = id;
              renderMine();
              root.querySelector(`[data-fk="${CSS.escape(`close-yes-${id}`)}"]`)?.focus();
            } }, t("close_table")) : null,
        asking ? el("button", { type: "button", class: "danger", "data-fk": `close-yes-${id}`,
          onclick: () => closeTable(id) }, t("close_yes")) : null,
        asking ? el("button", { type: "button", "data-fk": `close-no-${id}`,
          onclick: () => {
            state.closing = null;
            renderMine();
            root.querySelector(`[data-fk="${CSS.escape(`close-${id}`)}"]`)?.focus();
          } }, t("close_no")) : null)));
  }
  root.append(ul);
  if (focusKey) root.querySelector(`[data-fk="${CSS.escape(focusKey)}"]`)?.focus();
}

function statusWord(s) {
  if (s === "waiting") return t("status_waiting");
  if (s === "playing") return t("status_playing");
  if (s === "over") return t("status_over");
  if (s === "closed") return t("status_closed");
  if (s === "adjourned") return t("status_adjourned");
  return s ?? "";
}

async function join(table, seat) {
  const nameInput = document.getElementById("my-name");
  const name = (nameInput?.value ?? "").trim();
  if (!name) {
    announce(t("name_required"), "error");
    nameInput?.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  try {
    const r = await api(`/api/tables/${encodeURIComponent(table)}/seats/${seat}`, { method: "POST", body: { name } });
    localStorage.setItem(`thousand.seat.${table}`, JSON.stringify({ seat, token: r.token }));
    location.href = `/t/${encodeURIComponent(table)}`;
  } catch (err) {
    announce(err.code === "seat_taken" ? t("seat_taken") : err.message, "error");
    refreshTables();
  }
}

function renderTables() {
  renderMine();
  const root = els.tables;
  if (!root) return;
  const mine = new Set(state.mine.map((x) => x.table));
  const list = state.tables.filter((x) => x.status !== "over" && !mine.has(x.table));
  const focusKey = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.fk : null;
  clear(root, el("h2", {}, t("open_tables")));
  if (state.tablesError) root.append(el("p", { class: "error-line" }, t("tables_error", { why: state.tablesError })));
  if (!list.length) {
    root.append(el("p", { class: "muted" }, t("no_tables")));
    return;
  }
  const ul = el("ul", { class: "table-list" });
  for (const tb of list) {
    const mine = token(tb.table);
    const seats = el("ul", { class: "seat-list" }, (tb.seats ?? []).map((s) => el("li", {},
      s.kind === "bot"
        ? [el("span", { class: "tag bot" }, t("bot_tag", { level: levelName(s.level) })), " ", s.name ?? ""]
        : s.taken
          ? [el("span", { class: s.online ? "dot on" : "dot", "aria-hidden": "true" }), s.name ?? t("seat_person"),
            s.guest ? [" ", guestTag()] : null, s.online ? "" : ` (${t("offline")})`]
          : el("button", { type: "button", class: "small", "data-fk": `join-${tb.table}-${s.seat}`,
            onclick: () => join(tb.table, s.seat) }, t("take_seat", { n: s.seat + 1 })))));
    ul.append(el("li", { class: "table-card" },
      el("div", { class: "table-head" },
        el("strong", {}, presetWords(tb.preset)), " · ", statusWord(tb.status),
        " · ", el("span", { class: "table-clock" }, clockLabel(tb)),
        tb.spectators ? ` · ${t("spectators_n", { n: tb.spectators })}` : "",
        tb.created ? el("span", { class: "muted" }, ` · ${fmtDate(tb.created)}`) : ""),
      seats,
      el("div", { class: "table-actions" },
        mine ? el("a", { class: "button primary", href: `/t/${encodeURIComponent(tb.table)}` }, t("back_to_table"))
          : el("a", { class: "button", href: `/t/${encodeURIComponent(tb.table)}`, "data-fk": `watch-${tb.table}` }, t("watch")))));
  }
  root.append(ul);
  if (focusKey) root.querySelector(`[data-fk="${CSS.escape(focusKey)}"]`)?.focus();
}

// ------------------------------------------------------------------ start

async function loadRules() {
  await loadTexts(getLang()); // the presets' and levels' names for people
  state.me = await currentPlayer(); // an account's name fills the form
  try {
    state.rules = await api(`/api/rules?lang=${getLang()}`);
    if (!presetOf(state.preset) && state.rules.presets?.length) state.preset = state.rules.presets[0].name;
    const keep = state.values;
    resetValues();
    for (const [k, v] of Object.entries(keep)) if (k in state.values) state.values[k] = v;
  } catch (e) {
    state.rules = { presets: [], groups: [] };
    announce(t("rules_error", { why: e.message }), "error");
  }
  renderForm();
}

function layout() {
  const main = document.getElementById("main");
  els.form = el("form", { id: "create", class: "panel create", autocomplete: "off" });
  els.form.addEventListener("submit", createTable);
  els.tables = el("section", { id: "tables", class: "panel tables", "aria-live": "polite" });
  els.mine = el("section", { id: "mine", class: "panel tables mine", hidden: true });
  els.quick = el("div", { id: "quick-box" }); // quickplay.js, once the presets are known
  clear(main, 
    el("h1", {}, t("lobby_title")),
    el("p", { class: "lead" }, t("lobby_lead")),
    el("div", { class: "lobby" }, el("div", { class: "lobby-lists" }, els.quick,
      presenceBox(() => state.rules?.presets), els.mine, els.tables), els.form),
  );
}

function start() {
  mountHeader("nav_lobby");
  layout();
  renderForm();
  renderTables();
  loadRules();
  refreshTables();
  setInterval(() => {
    if (!document.hidden) refreshTables();
  }, REFRESH_MS);
  onLangChange(() => {
    layout();
    loadRules();
    renderTables();
  });
}

start();
