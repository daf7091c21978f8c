// The leaderboard (/leaderboard): per rating family (a preset at three or four players, a
// switch), rank, name (a link to the player's page), rating and games; the site's bots are
// on it too, marked, so that a new player sees how strong «любитель» is.

import { el, clear, api, mountHeader, loadTexts, presetName, levelName, shownName, guestTag } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";

const state = { families: [], family: null, board: null, error: null };

/** A family for people, each with a capital: a preset at its own number of players by
 * its own name («Классика», «Вдвоём», «По самоучителю, вчетвером»), at another number
 * with that number («Домашние правила, вчетвером»; the textbook's title, which names its
 * own four, without them: «По самоучителю, втроём»). */
export function familyTitle(f) {
  const preset = presetName(f.preset);
  const words = { 2: () => t("board_family_2", { preset: preset.split(",")[0] }),
    3: () => t("board_family_3", { preset: preset.split(",")[0] }),
    4: () => t("board_family_4", { preset: preset.split(",")[0] }) };
  const title = f.family === f.preset || !words[f.players] ? preset : words[f.players]();
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** A player's name on the site's pages: a bot by its level, a person by his name, a
 * guest who never gave one as such (never his id, «p_TKh5XQ8G…»). */
export function playerLabel(p) {
  if (p.kind === "bot") return levelName(p.level ?? p.player.slice(4));
  return p.name ? shownName(p.name) : t("board_unnamed_guest");
}

async function load() {
  try {
    if (!state.families.length) {
      state.families = (await api("/api/families")).families;
      const asked = new URLSearchParams(location.search).get("family");
      state.family = state.families.some((f) => f.family === asked) ? asked : state.families[0].family;
    }
    state.board = await api(`/api/leaderboard?family=${encodeURIComponent(state.family)}&limit=100`);
    state.error = null;
  } catch (e) {
    state.error = e.message;
  }
  render();
}

function choose(family) {
  state.family = family;
  state.board = null;
  history.replaceState(null, "", `?family=${encodeURIComponent(family)}`);
  render();
  load();
}

function render() {
  const main = document.getElementById("main");
  const b = state.board;
  const rows = b ? b.players : [];
  clear(main,
    el("h1", {}, t("board_title")),
    el("p", { class: "lead" }, t("board_lead")),
    state.families.length ? el("label", {}, t("board_family"), " ",
      el("select", { id: "family", onchange: (e) => choose(e.target.value) },
        state.families.map((f) => el("option", { value: f.family, selected: f.family === state.family }, familyTitle(f))))) : null,
    state.error ? el("p", { class: "error-line", role: "alert" }, t("board_error", { why: state.error })) : null,
    !b ? el("p", { class: "muted" }, t("loading"))
      : rows.length ? el("table", { class: "games leaderboard", id: "board" },
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, t("board_rank")),
          el("th", { scope: "col" }, t("board_player")),
          el("th", { scope: "col" }, t("board_rating")),
          el("th", { scope: "col" }, t("board_games")))),
        el("tbody", {}, rows.map((p) => el("tr", { class: p.kind === "bot" ? "bot" : null, "data-player": p.player },
          el("td", {}, String(p.place)),
          el("td", {}, el("a", { href: `/p/${encodeURIComponent(p.player)}` }, playerLabel(p)),
            p.kind === "bot" ? el("span", { class: "badge" }, " ", t("board_bot")) : null,
            p.kind === "guest" ? [" ", guestTag()] : null,
            p.provisional ? el("span", { class: "badge provisional", title: t("board_provisional_title") }, " ",
              t("board_provisional")) : null),
          el("td", {}, String(p.rating)),
          el("td", {}, String(p.games))))))
        : el("p", { class: "muted" }, t("board_empty")),
  );
}

if (document.body.classList.contains("page-leaderboard")) {
  mountHeader("nav_leaderboard");
  render();
  load();
  loadTexts(getLang()).then(render);
  onLangChange(() => loadTexts(getLang()).then(render));
}
