// The player's exercises (/exercises; docs/server.md "Analysis"): the costliest moves of
// his analysed games, each shown as the position he saw, to be solved again.  The server
// builds them and judges the answer (GET /api/exercises, POST .../answer); this page
// only draws the position with the table's own board and says the verdict.  The
// exercises are a draw from all his analysed games, weighted by the kind of mistake he
// makes most; under them his progress (exercise_progress.js), loaded again after each
// answer (the server keeps it).

import { el, clear, api, mountHeader } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { renderBoard, moveLabel } from "./board.js";
import { kindName, progressSection } from "./exercise_progress.js";

const state = { progress: null, list: null, at: 0, verdict: null, chosen: null, pendingDeclare: null, error: null, signIn: false, busy: false };

/** A move in words: a card by its name, a bid or a word as the table says it. */
function said(move, view) {
  return moveLabel(move, view, null, getLang());
}

async function answer(move) {
  const ex = state.list[state.at];
  state.pendingDeclare = null;
  state.busy = true;
  state.chosen = move;
  try {
    state.verdict = await api(`/api/exercises/${encodeURIComponent(ex.id)}/answer`, { method: "POST", body: { move } });
  } catch (e) {
    state.verdict = null;
    state.error = e.message;
  }
  state.busy = false;
  render();
  document.getElementById("verdict")?.focus();
  await loadProgress();
}

async function loadProgress() {
  try {
    state.progress = await api("/api/exercises/progress");
  } catch {
    return; // the exercises still work; the progress shows at the next answer
  }
  renderProgress();
}

function onCard(card) {
  const legal = state.list[state.at].view.legal || [];
  if (legal.includes(`${card}+`) && legal.includes(card)) {
    state.pendingDeclare = card;
    render();
    return;
  }
  for (const m of [card, `${card}+`, `give ${card}`, `discard ${card}`]) {
    if (legal.includes(m)) return answer(m);
  }
}

function verdictBox(ex) {
  const v = state.verdict;
  if (!v) return null;
  const text = v.right
    ? t("ex_right")
    : t("ex_wrong", { played: said(v.played, ex.view), best: said(v.best, ex.view) });
  return el("div", { id: "verdict", class: `panel verdict ${v.right ? "right" : "wrong"}`, tabindex: "-1", role: "status" },
    el("p", {}, el("strong", {}, text)),
    v.reason ? el("p", { class: "reason" }, v.reason) : null,
    el("button", { type: "button", id: "next", onclick: () => {
      state.at = (state.at + 1) % state.list.length;
      state.verdict = null;
      state.error = null;
      render();
    } }, t("ex_next")));
}

function render() {
  const main = document.getElementById("main");
  const title = el("h1", {}, t("ex_title"));
  if (state.error && !state.list) {
    return clear(main, title, el("p", { class: "error-line", role: "alert" }, state.error),
      state.signIn ? el("p", {}, el("a", { id: "sign-in-link", href: "/account" }, t("ex_sign_in_link"))) : null);
  }
  if (!state.list) return clear(main, title, el("p", { class: "muted" }, t("loading")));
  if (!state.list.length) {
    return clear(main, title, el("p", { id: "ex-empty" }, t("ex_empty")),
      el("p", {}, el("a", { href: "/history" }, t("nav_history"))));
  }
  const ex = state.list[state.at];
  const names = ex.players;
  const board = el("div", { class: "board-wrap" });
  renderBoard(board, {
    view: ex.view, names, seats: null, lang: getLang(), mySeat: ex.seat, rules: null,
    interactive: !state.verdict, busy: state.busy || !!state.verdict,
    pendingDeclare: state.pendingDeclare,
    onMove: (m) => answer(m), onCard,
    onDeclareChoice: (c) => { state.pendingDeclare = c; render(); },
  });
  clear(main, title,
    el("p", { class: "ex-count", "data-at": `${ex.deal}-${ex.index}` }, t("ex_count", { n: state.at + 1, of: state.list.length, deal: ex.deal })),
    el("p", { class: "ex-kind", "data-kind": ex.kind, "data-game": ex.game }, t("ex_kind", { kind: kindName(ex.kind) })),
    el("p", { class: "lead" }, t("ex_lead")),
    board,
    state.error ? el("p", { class: "error-line", role: "alert" }, state.error) : null,
    verdictBox(ex),
    el("div", { id: "ex-progress-box" }));
  renderProgress();
}

/** The progress alone: drawn again after an answer without touching the verdict, which
 * holds the keyboard's focus. */
function renderProgress() {
  const box = document.getElementById("ex-progress-box");
  if (box) clear(box, progressSection(state.progress));
}

async function load() {
  try {
    state.list = (await api("/api/exercises")).exercises;
  } catch (e) {
    state.signIn = e.status === 401;
    state.error = state.signIn ? t("ex_sign_in") : e.message;
  }
  render();
  if (state.list?.length) await loadProgress();
}

mountHeader("exercises");
onLangChange(() => { mountHeader("exercises"); render(); });
render();
load();
