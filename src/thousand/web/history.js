// Finished (and running) games (/history): players, rules, winner, scores; a replay link
// and the record to download for each.

import { el, clear, api, mountHeader, fmtDate, seatName, loadTexts, presetName, shownName, playerLinks } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";

const PAGE = 20;
const state = { games: [], offset: 0, done: false, error: null, loading: false };

function players(g) {
  const p = g.players ?? [];
  return p.map((x) => shownName(typeof x === "string" ? x : x && x.name ? x.name : "?"));
}

function winnerText(g, names) {
  if (g.status === "closed") return t("status_closed");
  if (g.status === "adjourned") return t("status_adjourned");
  if (g.winner === null || g.winner === undefined) {
    return g.finished ? "—" : el("span", { class: "muted running" }, t("game_running"));
  }
  if (Array.isArray(g.winner)) return seatName(g.winner, names, getLang());
  if (typeof g.winner === "string") return g.winner;
  return seatName(g.winner, names, getLang());
}

async function load(more = false) {
  if (state.loading) return;
  state.loading = true;
  try {
    const r = await api(`/api/games?limit=${PAGE}&offset=${more ? state.offset : 0}`);
    const list = Array.isArray(r) ? r : (r.games ?? []);
    state.games = more ? [...state.games, ...list] : list;
    state.offset = state.games.length;
    state.done = list.length < PAGE;
    state.error = null;
  } catch (e) {
    state.error = e.message;
  }
  state.loading = false;
  render();
}

function render() {
  const main = document.getElementById("main");
  const table = el("table", { class: "games" },
    el("caption", { class: "sr-only" }, t("history_title")),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("col_finished")),
      el("th", { scope: "col" }, t("col_players")),
      el("th", { scope: "col" }, t("col_preset")),
      el("th", { scope: "col" }, t("col_winner")),
      el("th", { scope: "col" }, t("col_scores")),
      el("th", { scope: "col" }, t("col_actions")))),
    el("tbody", {}, state.games.map((g) => {
      const names = players(g);
      const id = encodeURIComponent(g.id);
      return el("tr", {},
        el("td", {}, fmtDate(g.finished ?? g.started)),
        el("td", {}, playerLinks(names, g.player_ids ?? [], null, g.guests ?? [])),
        el("td", {}, presetName(g.preset)),
        el("td", {}, winnerText(g, names)),
        el("td", {}, Array.isArray(g.scores) ? g.scores.join(" / ") : ""),
        el("td", { class: "actions-cell" },
          // a closed table keeps its moves in the store, but no replay: its hands stay secret
          g.status === "closed" ? null : el("a", { class: "button small", href: `/replay/${id}` }, t("open_replay")), " ",
          g.status === "closed" ? null : g.finished
            ? el("a", { class: "button small", href: `/api/games/${id}/record`, download: `thousand-${g.id}.json` },
              t("download_record"))
            : el("a", { class: "button small", href: `/t/${id}` }, t("to_the_table"))));
    })));
  clear(main, 
    el("h1", {}, t("history_title")),
    el("p", {}, el("a", { href: "/replay" }, t("upload_link"))),
    state.error ? el("p", { class: "error-line", role: "alert" }, t("games_error", { why: state.error })) : null,
    state.games.length ? table : el("p", { class: "muted" }, state.loading ? t("loading") : t("no_games")),
    !state.done && state.games.length ? el("button", { type: "button", onclick: () => load(true) }, t("more")) : null,
  );
}

mountHeader("nav_history");
render();
loadTexts(getLang()).then(render); // the presets' names for people
load();
onLangChange((lang) => loadTexts(lang).then(render));
