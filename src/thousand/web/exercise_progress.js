// The player's progress on the exercises page (GET /api/exercises/progress; docs/server.md
// "Analysis"): for each kind of mistake (the auction, the exchange, the play, the
// marriage) its share of the draw, the share of his answers that were right (a bar each,
// hidden from screen readers: the table beside says the same) and, week by week, his
// answers and the mean cost of his mistakes a game.

import { el } from "./common.js";
import { t } from "./i18n.js";

const KIND_NAMES = {
  auction: () => t("ex_kind_auction"),
  exchange: () => t("ex_kind_exchange"),
  play: () => t("ex_kind_play"),
  marriage: () => t("ex_kind_marriage"),
};

/** A kind's name («Торговля», "Auction"). */
export function kindName(kind) {
  return KIND_NAMES[kind]?.() ?? kind;
}

const percent = (x) => `${Math.round(x * 100)}%`;
const th = (text, scope = "col") => el("th", { scope }, text);

function bars(kinds) {
  return el("div", { class: "ex-bars", "aria-hidden": "true" }, kinds.map((k) => {
    const share = k.answered ? k.solved / k.answered : 0;
    return el("div", { class: "ex-bar-row" },
      el("span", { class: "ex-bar-name" }, kindName(k.kind)),
      el("span", { class: "ex-bar" }, el("span", { class: "ex-bar-fill", style: `width:${percent(share)}` })),
      el("span", { class: "ex-bar-value" }, k.answered ? percent(share) : "—"));
  }));
}

function kindsTable(kinds) {
  return el("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("ex_kinds_caption") },
    el("table", { class: "analysis-summary", id: "ex-kinds" },
      el("caption", {}, t("ex_kinds_caption")),
      el("thead", {}, el("tr", {}, th(t("ex_col_kind")), th(t("ex_col_weight")), th(t("ex_col_solved")),
        th(t("ex_col_mistakes")), th(t("ex_col_cost")))),
      el("tbody", {}, kinds.map((k) => el("tr", { "data-kind": k.kind },
        th(kindName(k.kind), "row"),
        el("td", {}, percent(k.weight)),
        el("td", { class: "solved" }, k.answered ? t("ex_solved_of", { solved: k.solved, answered: k.answered }) : "—"),
        el("td", {}, String(k.mistakes)),
        el("td", {}, String(Math.round(k.cost))))))));
}

function weeksTable(weeks, kinds) {
  if (!weeks.length) return null;
  const cell = (c) => el("td", {}, t("ex_week_cell", {
    solved: c.answered ? t("ex_solved_of", { solved: c.solved, answered: c.answered }) : "—",
    cost: String(Math.round(c.cost)),
  }));
  return el("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("ex_weeks_caption") },
    el("table", { class: "analysis-summary", id: "ex-weeks" },
      el("caption", {}, t("ex_weeks_caption")),
      el("thead", {}, el("tr", {}, th(t("ex_col_week")), th(t("ex_col_games")), kinds.map((k) => th(kindName(k.kind))))),
      el("tbody", {}, weeks.map((w) => el("tr", {},
        th(w.week, "row"), el("td", {}, String(w.games)),
        kinds.map((k) => cell(w.kinds[k.kind])))))));
}

/** The progress section, or null before it is loaded. */
export function progressSection(progress) {
  if (!progress) return null;
  return el("section", { id: "ex-progress", "aria-labelledby": "ex-progress-h" },
    el("h2", { id: "ex-progress-h" }, t("ex_progress")),
    el("p", { class: "explain" }, t("ex_progress_lead")),
    bars(progress.kinds),
    kindsTable(progress.kinds),
    weeksTable(progress.weeks, progress.kinds));
}
