// The replay viewer (/replay/{id}, or /replay to upload a record file): every move, one
// step at a time (buttons and arrow keys), all hands once the game is over, the score sheet.

import { el, clear, api, mountHeader, loadTexts, eventText, seatName, announce } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { renderBoard, moveLabel } from "./board.js";
import { sheetRows, sheetTable, scoreChart } from "./sheet.js";
import { stepMoves, decisionAt, betterBox, betterCard, dealChart, markBadge, markList, summaryTable } from "./analysis.js";

const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts[0] === "replay" && parts[1] ? decodeURIComponent(parts[1]) : null;
const MAX_BYTES = 10 * 1024 * 1024;
// a game kept for its players (an unlisted table's, or as its creator chose) is shown to
// whoever holds a seat's token: the one the table page kept in this browser
const seatToken = (() => {
  try {
    const s = gameId ? JSON.parse(localStorage.getItem(`thousand.seat.${gameId}`) ?? "null") : null;
    return s && typeof s.token === "string" ? s.token : null;
  } catch (e) {
    return null;
  }
})();

const state = { replay: null, step: 0, texts: {}, error: null, uploaded: null, loading: false,
  // the analysis mode: the server's answer (GET /api/games/{id}/analysis), its settings
  analysis: null, analysisError: null, fast: true, moves: [] };
let els = {};

function names() {
  const r = state.replay && state.replay.record;
  const h = state.replay && state.replay.header;
  if (r && Array.isArray(r.players)) return r.players;
  return h && Array.isArray(h.players) ? h.players : [];
}

/** What the board needs to mark the guests' seats (a game of the site's: ``guests``); null
 * for an uploaded record, whose players the site does not know. */
function guestSeats() {
  const guests = state.replay && state.replay.guests;
  return Array.isArray(guests) ? guests.map((guest, seat) => ({ seat, guest })) : null;
}

/** The players' names in every case ({name: {gen, dat, …}}), as the server sends them with
 * the replay (the same forms as the table's snapshot), so that the event lines decline them. */
function nameForms(lang) {
  const all = state.replay && state.replay.name_forms;
  return (all && all[lang === "ru" ? "ru" : "en"]) || {};
}

function rules() {
  const h = state.replay && state.replay.header;
  const r = state.replay && state.replay.record;
  if (h && h.rules && typeof h.rules === "object") return h.rules;
  return r && r.rules && typeof r.rules === "object" ? r.rules : {};
}

function steps() {
  return (state.replay && state.replay.steps) || [];
}

function go(i) {
  const n = steps().length;
  if (!n) return;
  state.step = Math.max(0, Math.min(n - 1, i));
  renderStep();
}

function dealStart(i, dir) {
  const s = steps();
  if (!s.length) return i;
  const deal = s[i].deal;
  if (dir < 0) {
    let j = i;
    // the first step of this deal, or of the one before when already there
    while (j > 0 && s[j - 1].deal === deal) j--;
    if (j === i && j > 0) {
      j--;
      const prev = s[j].deal;
      while (j > 0 && s[j - 1].deal === prev) j--;
    }
    return j;
  }
  let j = i;
  while (j < s.length - 1 && s[j].deal === deal) j++;
  return j;
}

function layout() {
  const main = document.getElementById("main");
  els = {
    upload: el("section", { class: "panel upload" }),
    head: el("div", { class: "replay-head", "aria-live": "polite" }),
    better: el("div", { class: "better-wrap", "aria-live": "polite" }),
    analysis: el("section", { class: "panel analysis-panel", "aria-labelledby": "analysis-title" }),
    controls: el("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay_controls") }),
    board: el("div", { class: "board-wrap" }),
    lines: el("ol", { class: "log step-log" }),
    sheet: el("div"),
    chart: el("div"),
    download: el("p"),
  };
  clear(main, 
    el("h1", {}, t("replay_title")),
    state.error ? el("p", { class: "error-line", role: "alert" }, state.error) : null,
    gameId ? null : els.upload,
    el("div", { class: "table-layout" },
      el("div", { class: "play-col" }, els.head, els.controls, els.better, els.board, els.download),
      el("aside", { class: "side" },
        el("section", { class: "panel" }, el("h2", {}, t("step_events")), els.lines))),
    gameId ? els.analysis : null,
    el("section", { class: "panel wide-sheet" }, el("h2", {}, t("sheet_title")),
      el("div", { class: "sheet-and-chart" }, els.sheet, el("div", {}, el("h3", {}, t("chart_title")), els.chart))),
  );
  renderUpload();
}

function renderUpload() {
  if (gameId) return;
  const file = el("input", { id: "record-file", type: "file", accept: ".json,application/json" });
  const form = el("form", { class: "upload-form" },
    el("h2", {}, t("upload_title")),
    el("p", {}, t("upload_text")),
    el("label", { for: "record-file" }, t("record_file")), " ", file, " ",
    el("button", { type: "submit", class: "primary" }, t("upload_button")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = file.files && file.files[0];
    if (!f) {
      announce(t("choose_file"), "error");
      return;
    }
    if (f.size > MAX_BYTES) {
      showError(t("file_too_big"));
      return;
    }
    const text = await f.text();
    await upload(text);
  });
  clear(els.upload, form);
}

async function upload(text) {
  state.loading = true;
  try {
    const r = await api("/api/replay", { method: "POST", body: text, raw: true });
    state.replay = r;
    state.moves = stepMoves(steps());
    state.uploaded = text;
    state.error = null;
    state.step = 0;
    renderStep();
  } catch (err) {
    showError(t("replay_refused", { why: err.message }));
  }
  state.loading = false;
}

function showError(text) {
  state.error = text;
  const main = document.getElementById("main");
  let box = main.querySelector(".error-line");
  if (!box) {
    box = el("p", { class: "error-line", role: "alert" });
    main.querySelector("h1").after(box);
  }
  box.textContent = text;
}

const ICONS = { first: "|◀", "prev-deal": "◀◀", prev: "◀", next: "▶", "next-deal": "▶▶", last: "▶|" };

function button(label, key, onclick, fk) {
  return el("button", { type: "button", "aria-label": label, title: label, "aria-keyshortcuts": key,
    "data-fk": fk, onclick }, el("span", { "aria-hidden": "true" }, ICONS[fk] ?? "?"));
}

function renderStep() {
  const s = steps();
  if (!s.length) {
    clear(els.head);
    clear(els.controls);
    clear(els.board, el("p", { class: "muted" }, state.loading ? t("loading") : gameId ? t("loading") : t("replay_empty")));
    return;
  }
  const lang = getLang();
  const nm = names();
  const step = s[state.step];
  const focus = document.activeElement && els.controls.contains(document.activeElement) ? document.activeElement.dataset.fk : null;
  const what = step.move === null || step.move === undefined
    ? t("step_deal_start", { deal: step.deal })
    : t("step_move", { deal: step.deal, name: seatName(step.seat, nm, lang),
      move: step.view ? moveLabel(step.move, step.view, null, lang) : step.move });
  const at = state.moves[state.step];
  const result = state.analysis && state.analysis.status === "done" ? state.analysis.result : null;
  const decision = result && at ? decisionAt(result, at.deal, at.index) : null;
  clear(els.head, 
    el("p", { class: "step-title" }, what, decision && decision.mark ? [" ", markBadge(decision.mark)] : null),
    el("p", { class: "muted" }, t("step_n", { n: state.step + 1, total: s.length })),
  );
  const range = el("input", { type: "range", min: "0", max: String(s.length - 1), value: String(state.step),
    "aria-label": t("step_slider"), "data-fk": "range" });
  range.addEventListener("input", () => go(Number.parseInt(range.value, 10)));
  clear(els.controls, 
    button(t("step_first"), "Home", () => go(0), "first"),
    button(t("step_prev_deal"), "PageUp", () => go(dealStart(state.step, -1)), "prev-deal"),
    button(t("step_prev"), "ArrowLeft", () => go(state.step - 1), "prev"),
    button(t("step_next"), "ArrowRight", () => go(state.step + 1), "next"),
    button(t("step_next_deal"), "PageDown", () => go(dealStart(state.step, 1)), "next-deal"),
    button(t("step_last"), "End", () => go(s.length - 1), "last"),
    range,
  );
  if (focus) els.controls.querySelector(`[data-fk="${focus}"]`)?.focus();
  if (step.view) {
    renderBoard(els.board, {
      view: step.view, names: nm, seats: guestSeats(), lang, mySeat: null, forms: nameForms(lang),
      hands: Array.isArray(step.hands) ? step.hands : null,
      rules: rules(),
      hint: betterCard(decision),
      interactive: false, busy: true, onMove() {}, onCard() {}, onDeclareChoice() {},
    });
  }
  clear(els.better, betterBox(decision, lang));
  renderAnalysis(step, at);
  clear(els.lines, ...(step.events || []).map((ev) => el("li", { class: `ev ev-${ev.type}` },
    eventText(ev, nm, state.texts, lang, null, nameForms(lang)))));
  const events = s.slice(0, state.step + 1).flatMap((x, i) => (x.events || []).map((ev) => ({ ...ev, v: ev.v ?? i })));
  const rows = sheetRows(events);
  clear(els.sheet, sheetTable(rows, nm, lang, null, (guestSeats() || []).map((x) => x.guest)));
  clear(els.chart, scoreChart(rows, nm, rules()));
  clear(els.download);
  if (gameId && state.replay.over === false) {
    els.download.append(el("span", { class: "muted" }, t("record_after_game")), " ",
      el("a", { href: `/t/${encodeURIComponent(gameId)}` }, t("to_the_table")));
  } else if (gameId && seatToken && state.replay.record) {
    // the record as the replay gave it (a link cannot send the seat's token)
    const text = JSON.stringify(state.replay.record, null, 2) + "\n";
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    els.download.append(el("a", { class: "button", href: url, download: `thousand-${gameId}.json` },
      t("download_record")));
  } else if (gameId) {
    els.download.append(el("a", { class: "button", href: `/api/games/${encodeURIComponent(gameId)}/record`,
      download: `thousand-${gameId}.json` }, t("download_record")));
  } else if (state.uploaded) {
    const url = URL.createObjectURL(new Blob([state.uploaded], { type: "application/json" }));
    els.download.append(el("a", { class: "button", href: url, download: "thousand-record.json" }, t("download_record")));
  }
}

// ---------------------------------------------------------------- the analysis mode

function analysisSettings() {
  return { samples: state.fast ? 1 : 24, view_based: !state.fast, lang: getLang() };
}

function analysisPath(settings) {
  const q = settings ? `?samples=${settings.samples}&view_based=${settings.view_based}&lang=${settings.lang}` : "";
  return `/api/games/${encodeURIComponent(gameId)}/analysis${q}`;
}

const tokenHeaders = () => (seatToken ? { "X-Seat-Token": seatToken } : {});

/** The step that shows the record's move (deal, index), or null. */
function stepOf(deal, index) {
  const i = state.moves.findIndex((m) => m && m.deal === deal && m.index === index);
  return i < 0 ? null : i;
}

const running = () => state.analysis && (state.analysis.status === "queued" || state.analysis.status === "running");

/** Follow the job of these settings every second until it is done or failed. */
async function follow(settings) {
  while (running()) {
    renderStep();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      state.analysis = await api(analysisPath(settings), { headers: tokenHeaders() });
    } catch (e) {
      state.analysisError = t("analysis_failed", { why: e.message });
      state.analysis = null;
    }
  }
  renderStep();
}

/** Ask for the analysis, then follow it. */
async function askAnalysis() {
  const settings = analysisSettings();
  state.analysisError = null;
  try {
    state.analysis = await api(analysisPath(null), { method: "POST", body: settings, headers: tokenHeaders() });
  } catch (e) {
    state.analysisError = t("analysis_refused", { why: e.message });
    renderStep();
    return;
  }
  await follow(settings);
}

/** The analysis panel: the button and the state of the job, or the summary, the current
 * deal's chart and its marks. */
function renderAnalysis(step, at) {
  if (!gameId || !state.replay || state.replay.over !== true) {
    clear(els.analysis);
    els.analysis.hidden = true;
    return;
  }
  els.analysis.hidden = false;
  const a = state.analysis;
  const title = el("h2", { id: "analysis-title" }, t("analysis_title"));
  if (a && a.status === "done") {
    const deal = (a.result.deals || []).find((d) => d.number === step.deal);
    const nm = names();
    clear(els.analysis, title, summaryTable(a.result),
      deal ? el("h3", {}, t("analysis_deal_marks", { deal: deal.number })) : null,
      deal ? markList(deal, getLang(), stepOf, go, nm) : null,
      deal ? dealChart(deal, nm, at ? at.index : null) : null,
      el("p", {}, el("a", { href: "/exercises" }, t("ex_link"))));
    return;
  }
  const busy = running();
  const fast = el("input", { type: "checkbox", id: "analysis-fast", checked: state.fast ? true : null,
    disabled: busy ? true : null, onchange: (e) => { state.fast = e.target.checked; } });
  const status = busy
    ? a.status === "queued" ? t("analysis_queued", { position: a.position })
      : a.progress.total ? t("analysis_running", { done: a.progress.done, total: a.progress.total }) : t("analysis_starting")
    : a && a.status === "failed" ? t("analysis_failed", { why: a.error ?? "" }) : state.analysisError;
  const progress = busy && a.progress.total
    ? el("progress", { max: String(a.progress.total), value: String(a.progress.done), "aria-label": status }) : null;
  clear(els.analysis, title,
    el("p", {}, el("button", { type: "button", class: "primary", id: "analysis-button", disabled: busy ? true : null,
      onclick: () => askAnalysis() }, t("analysis_button")), " ",
    el("label", { for: "analysis-fast" }, fast, " ", t("analysis_fast"))),
    el("p", { class: "analysis-status", role: "status" }, status ?? ""), progress);
}

/** An analysis already asked for this game (in this language), shown at once (and
 * followed while it runs). */
async function loadAnalysis() {
  try {
    // `optional`: none yet is null, not a 404 in the console
    state.analysis = await api(`${analysisPath(null)}?lang=${getLang()}&optional=true`, { headers: tokenHeaders() });
  } catch (e) {
    state.analysis = null;
  }
  if (!state.analysis) return; // none yet: the button asks for one
  state.fast = state.analysis.settings.view_based === false;
  if (running()) follow(state.analysis.settings);
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target instanceof HTMLElement && target.closest("input[type=text], input[type=file], textarea, select")) return;
  if (target instanceof HTMLInputElement && target.type === "range") return;
  const keys = {
    ArrowRight: () => go(state.step + 1),
    ArrowLeft: () => go(state.step - 1),
    Home: () => go(0),
    End: () => go(steps().length - 1),
    PageDown: () => go(dealStart(state.step, 1)),
    PageUp: () => go(dealStart(state.step, -1)),
  };
  if (keys[e.key] && steps().length) {
    e.preventDefault();
    keys[e.key]();
  }
}

async function start() {
  mountHeader("nav_replay");
  state.texts = await loadTexts(getLang());
  layout();
  document.addEventListener("keydown", onKey);
  onLangChange(async (lang) => {
    state.texts = await loadTexts(lang);
    layout();
    renderStep();
  });
  if (gameId) {
    state.loading = true;
    renderStep();
    try {
      state.replay = await api(`/api/games/${encodeURIComponent(gameId)}/replay`,
        { headers: seatToken ? { "X-Seat-Token": seatToken } : {} });
    } catch (e) {
      showError(t("replay_load_failed", { why: e.message }));
    }
    state.loading = false;
    state.moves = stepMoves(steps());
    if (state.replay && state.replay.over) await loadAnalysis();
  }
  renderStep();
}

start();
