// The deal of the day (/daily): today's deals, each played once in seat 0 against the
// same two bots as everyone's (a button to begin or go back to it; once over, its score
// and the link to its replay and analysis), the commitment to the day's seed, the day's
// leaderboard by duplicate score, and the player's own days (docs/server.md "The deal
// of the day").

import { el, clear, api, mountHeader, loadTexts, currentPlayer, nameInput, NAME_KEY, shownName, guestTag, fmtNumber, fmtDate, levelName } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";

const state = { day: null, history: [], me: null, error: null, busy: false };

async function load() {
  try {
    state.me = await currentPlayer(); // a guest's session the first time: a player's deals
    [state.day, state.history] = await Promise.all([api("/api/daily"),
      api("/api/daily/me").then((r) => r.days)]);
    state.error = null;
  } catch (e) {
    state.error = e.message;
  }
  render();
}

async function play(deal) {
  state.busy = true;
  render();
  try {
    const input = document.getElementById("daily-name");
    const name = input && !input.readOnly ? input.value.trim() : null;
    if (name) localStorage.setItem(NAME_KEY, name);
    const r = await api(`/api/daily/deals/${deal}`, { method: "POST", body: name ? { name } : {} });
    localStorage.setItem(`thousand.seat.${r.table}`, JSON.stringify({ seat: r.seat, token: r.token }));
    location.href = r.url;
  } catch (e) {
    state.busy = false;
    state.error = e.code === "daily_played" ? t("daily_played") : e.message;
    render();
  }
}

function signed(n) {
  return (n > 0 ? "+" : "") + fmtNumber(n, 2);
}

function dealItem(d) {
  const label = t("daily_deal", { n: d.deal });
  if (d.status === "over") {
    return el("li", { "data-deal": d.deal }, label, ": ", t("daily_score", { score: String(d.score ?? "—") }), " · ",
      el("a", { href: d.url }, t("daily_replay")));
  }
  return el("li", { "data-deal": d.deal }, label, " ",
    el("button", { type: "button", class: "daily-play", disabled: state.busy, onclick: () => play(d.deal) },
      d.status === "playing" ? t("daily_continue", { n: d.deal }) : t("daily_play", { n: d.deal })));
}

function boardTable(day) {
  const deals = Array.from({ length: day.deals }, (_, i) => String(i + 1));
  if (!day.board.length) return el("p", { class: "muted" }, t("daily_board_empty"));
  return el("table", { class: "games leaderboard", id: "daily-board" },
    el("caption", {}, t("daily_board_caption", { day: day.day })),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("board_rank")),
      el("th", { scope: "col" }, t("board_player")),
      el("th", { scope: "col" }, t("daily_total")),
      deals.map((k) => el("th", { scope: "col" }, t("daily_deal", { n: k }))))),
    el("tbody", {}, day.board.map((r) => el("tr", { class: r.me ? "me" : null, "data-player": r.player },
      el("td", {}, String(r.place)),
      el("td", {}, el("a", { href: `/p/${encodeURIComponent(r.player)}` }, shownName(r.name)),
        r.guest ? [" ", guestTag()] : null),
      el("td", {}, signed(r.total)),
      deals.map((k) => el("td", {}, k in r.deals ? String(r.deals[k]) : "—"))))));
}

/** A player's days (GET /api/daily/me, or his page's `daily`): the day, his place of how
 * many, his score against the field, the deals he finished; `empty` when there are none. */
export function daysTable(days, id, empty) {
  if (!days.length) return el("p", { class: "muted" }, empty);
  return el("table", { class: "games", id },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("daily_day")),
      el("th", { scope: "col" }, t("board_rank")),
      el("th", { scope: "col" }, t("daily_total")),
      el("th", { scope: "col" }, t("daily_played_count")))),
    el("tbody", {}, days.map((h) => el("tr", { "data-day": h.day },
      el("td", {}, h.day),
      el("td", {}, h.place ? t("daily_place_of", { place: h.place, n: h.players }) : "—"),
      el("td", {}, h.total === null ? "—" : signed(h.total)),
      el("td", {}, String(h.played))))));
}

function render() {
  const main = document.getElementById("main");
  const day = state.day;
  clear(main,
    el("h1", {}, t("daily_title")),
    el("p", { class: "lead" }, t("daily_lead")),
    state.error ? el("p", { class: "error-line", role: "alert" }, state.error) : null,
    !day ? el("p", { class: "muted" }, t("loading")) : [
      el("p", {}, t("daily_rules", { n: day.deals, level: levelName(day.bot_level) })),
      el("h2", {}, t("daily_today", { day: day.day })),
      el("p", {}, el("label", { for: "daily-name" }, t("daily_name")), " ",
        nameInput("daily-name", state.me, document.getElementById("daily-name")?.value)),
      el("ul", { class: "daily-deals", id: "daily-deals" }, day.mine.map(dealItem)),
      el("p", { class: "muted" }, t("daily_commitment"), " ", el("code", { class: "commitment" }, day.commitment ?? "—"),
        " ", t("daily_reveal", { at: fmtDate(day.reveal_at) })),
      el("h2", {}, t("daily_board")),
      boardTable(day),
      el("h2", {}, t("daily_history")),
      daysTable(state.history, "daily-history", t("daily_history_empty")),
    ],
  );
}

if (document.body.classList.contains("page-daily")) {
  mountHeader("nav_daily");
  render();
  load();
  loadTexts(getLang()).then(render);
  onLangChange(() => loadTexts(getLang()).then(render));
}
