// The replay's analysis mode (docs/server.md "Analysis", docs/analysis.md): what a step's
// decision was worth, drawn from the analysis JSON the server made (GET
// /api/games/{id}/analysis): the marks' badges, the better move and its reason, the deal's
// chart (the declarer's double-dummy total after each card against the contract, and each
// player's view-based value of his moves), the players' summary.  Pure rendering: the
// replay page (replay.js) asks the server and says which step is shown.

import { el, fmtNumber } from "./common.js";
import { t } from "./i18n.js";
import { CARD, cardLabel } from "./cards.js";
import { SEAT_COLORS, svgEl } from "./sheet.js";

/** The chess-like sign of each mark. */
export const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** Each mark's name. */
const MARK_NAME = {
  inaccuracy: () => t("mark_inaccuracy"),
  mistake: () => t("mark_mistake"),
  blunder: () => t("mark_blunder"),
};

/** A mark's badge: the sign shown, the mark's name on hover and for screen readers. */
export function markBadge(mark) {
  const name = (MARK_NAME[mark] ?? MARK_NAME.inaccuracy)();
  return el("span", { class: `mark-badge mark-${mark}`, title: name, role: "img", "aria-label": name },
    MARK_SIGN[mark] ?? "?");
}


/** The words of the moves that are not a card or a bid. */
const MOVE_WORDS = {
  give: (card) => t("amove_give", { card }),
  discard: (card) => t("amove_discard", { card }),
  pass: () => t("amove_pass"),
  dark: () => t("amove_dark"),
  buy: () => t("amove_buy"),
  redeal: () => t("amove_redeal"),
  concede: () => t("amove_concede"),
};

/** A move of the record notation as the players say it: "A♠", "К♥ +", "снос 9♠", "120". */
export function moveText(move, lang) {
  if (typeof move !== "string") return "";
  const plain = move.replace(/\+$/, "");
  if (CARD.test(plain)) return cardLabel(plain, lang) + (move.endsWith("+") ? " +" : "");
  const m = /^(give|discard) (\S+)$/.exec(move);
  if (m) return MOVE_WORDS[m[1]](CARD.test(m[2]) ? cardLabel(m[2], lang) : m[2]);
  const c = /^contract (\d+)$/.exec(move);
  if (c) return t("amove_contract", { n: c[1] });
  if (/^\d+$/.test(move)) return move;
  return Object.hasOwn(MOVE_WORDS, move) ? MOVE_WORDS[move]() : move;
}

/** For each replay step, the (deal, index) of the record's move it shows (the index in
 * its deal's move list, which never holds "look"), or null for a deal's start. */
export function stepMoves(steps) {
  const out = [];
  let deal = null;
  let index = 0;
  for (const s of steps) {
    if (s.move === null || s.move === undefined || s.move === "look") {
      if (s.deal !== deal) {
        deal = s.deal;
        index = 0;
      }
      out.push(null);
      continue;
    }
    if (s.deal !== deal) {
      deal = s.deal;
      index = 0;
    }
    out.push({ deal: s.deal, index });
    index++;
  }
  return out;
}

/** The analysis' decision at (deal, index), or null (not analysed). */
export function decisionAt(analysis, deal, index) {
  const d = (analysis?.deals || []).find((x) => x.number === deal);
  return d ? (d.decisions || []).find((x) => x.index === index) ?? null : null;
}

/** The better move of a decision and what the played one cost: {move, cost} or null when
 * the played move was as good (or the decision was forced). */
export function betterMove(decision) {
  if (!decision || decision.forced) return null;
  const v = decision.view;
  if (decision.basis === "view" && v && v.best && v.best !== decision.played) {
    return { move: v.best, cost: v.cost };
  }
  const o = decision.open;
  if (o && o.best && o.best !== decision.played && o.lost > 0) return { move: o.best, cost: o.lost };
  if (v && v.best && v.best !== decision.played && v.cost > 0) return { move: v.best, cost: v.cost };
  return null;
}

const round = (x) => Math.round(x * 10) / 10;

/** «Лучше: A♠ (−10)» and the reason, for the step shown; null when nothing is better. */
export function betterBox(decision, lang) {
  const better = betterMove(decision);
  if (!better) return null;
  return el("div", { class: "better-move", role: "note" },
    decision.mark ? markBadge(decision.mark) : null, " ",
    el("strong", {}, t("analysis_better", { move: moveText(better.move, lang), cost: `−${round(better.cost)}` })),
    decision.reason ? el("p", { class: "reason" }, decision.reason) : null);
}

/** The card of a better move, to be shown highlighted in its hand (null: not a card). */
export function betterCard(decision) {
  const better = betterMove(decision);
  if (!better) return null;
  const card = better.move.replace(/^(give|discard) /, "").replace(/\+$/, "");
  return CARD.test(card) ? card : null;
}

/** The chart of one deal: the declarer's double-dummy total after each card against the
 * contract line (above), each player's view-based value of the moves he played (below);
 * `current` (a move index) is marked. */
export function dealChart(deal, names, current = null) {
  const W = 640;
  const L = 44;
  const R = 10;
  const chart = deal.chart || [];
  const valued = (deal.decisions || []).filter((d) => d.view && !d.forced)
    .map((d) => ({ index: d.index, seat: d.seat, value: (d.view.moves || []).find((m) => m.move === d.played)?.value }))
    .filter((p) => typeof p.value === "number");
  const indexes = [...chart.map((c) => c.index), ...valued.map((p) => p.index)];
  const x0 = Math.min(0, ...indexes);
  const x1 = Math.max(x0 + 1, ...indexes);
  const x = (i) => L + ((W - L - R) * (i - x0)) / (x1 - x0);
  const panels = [];
  const totals = chart.map((c) => c.declarer_total);
  const contract = deal.contract ?? deal.double_dummy?.contract ?? null;
  const top = { y: 10, h: 150 };
  const bottom = { y: 190, h: 110 };
  const AXIS = 30; // the x-axis under the panels: the tricks
  const H = (valued.length ? 330 : 190) + AXIS;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart analysis-chart", role: "img",
    "aria-label": t("analysis_chart_label", { deal: deal.number, best: deal.double_dummy?.declarer_best ?? "—",
      contract: contract ?? "—" }) });
  svg.append(svgEl("title", {}, t("analysis_chart_title", { deal: deal.number })));
  const scale = (vals, box) => {
    let lo = Math.min(0, ...vals);
    let hi = Math.max(10, ...vals);
    if (hi - lo < 20) hi = lo + 20;
    return (v) => box.y + (box.h * (hi - v)) / (hi - lo);
  };
  if (totals.length) {
    const y = scale([...totals, contract ?? 0], top);
    for (const v of [0, contract].filter((v) => typeof v === "number")) {
      svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "win contract-line" }));
      svg.append(svgEl("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)));
    }
    const pts = chart.map((c) => `${x(c.index).toFixed(1)},${y(c.declarer_total).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { points: pts, fill: "none", stroke: "#333", "stroke-width": 2, class: "dd-line" }));
    for (const c of chart) {
      const d = (deal.decisions || []).find((z) => z.index === c.index);
      svg.append(svgEl("circle", { cx: x(c.index), cy: y(c.declarer_total), r: d && d.mark ? 4.5 : 2.5,
        class: d && d.mark ? `dd-point mark-${d.mark}` : "dd-point" }));
    }
    panels.push(t("analysis_chart_dd"));
  }
  if (valued.length) {
    const y = scale(valued.map((p) => p.value), bottom);
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
    svg.append(svgEl("text", { x: L - 4, y: bottom.y - 4, "text-anchor": "start", class: "tick" }, t("analysis_chart_view")));
    for (const p of valued) {
      svg.append(svgEl("circle", { cx: x(p.index), cy: y(p.value), r: 3, fill: SEAT_COLORS[p.seat % 4], class: `view-point s${p.seat}` }));
    }
  }
  tricksAxis(svg, deal, x, L, W - R, H - AXIS + 6, H - 6);
  if (current !== null && current >= x0 && current <= x1) {
    svg.append(svgEl("line", { x1: x(current), x2: x(current), y1: 4, y2: H - 4, class: "now" }));
  }
  const seats = [...new Set(valued.map((p) => p.seat))].sort();
  const legend = el("ul", { class: "legend" },
    totals.length ? el("li", {}, el("span", { class: "swatch", style: "background:#333", "aria-hidden": "true" }), t("analysis_chart_dd")) : null,
    seats.map((s) => el("li", {}, el("span", { class: "swatch", style: `background:${SEAT_COLORS[s % 4]}`, "aria-hidden": "true" }),
      names[s] ?? String(s))));
  // what the lines are: «итог в открытую» means nothing to a player until it is said
  return el("figure", { class: "chart-box" }, svg, legend,
    el("figcaption", { class: "explain chart-explain" }, t("analysis_chart_explain")));
}

/** The chart's x-axis: a line under the panels, each trick's number under its first card
 * (the decisions say which trick a move was in), the axis named at its end. */
function tricksAxis(svg, deal, x, left, right, lineY, textY) {
  svg.append(svgEl("line", { x1: left, x2: right, y1: lineY, y2: lineY, class: "axis x-axis" }));
  const first = new Map();
  for (const d of deal.decisions || []) if (d.trick && !first.has(d.trick)) first.set(d.trick, d.index);
  for (const [trick, index] of first) {
    svg.append(svgEl("line", { x1: x(index), x2: x(index), y1: lineY, y2: lineY + 4, class: "axis" }));
    svg.append(svgEl("text", { x: x(index), y: textY, "text-anchor": "middle", class: "tick" }, String(trick)));
  }
  svg.append(svgEl("text", { x: left - 4, y: textY, "text-anchor": "end", class: "tick axis-name" }, t("analysis_axis_tricks")));
}

/** The marked decisions of a deal, each a button that shows its step, saying whose move
 * it was («Боря, взятка 5: Т♦»): the list is read before any is clicked. */
export function markList(deal, lang, stepOf, onPick, names = []) {
  const marked = (deal.decisions || []).filter((d) => d.mark);
  if (!marked.length) return el("p", { class: "muted" }, t("analysis_no_marks"));
  return el("ol", { class: "mark-list" }, marked.map((d) => {
    const step = stepOf(deal.number, d.index);
    const name = names[d.seat] ?? t("seat_n", { n: (d.seat ?? 0) + 1 });
    const move = moveText(d.played, lang);
    return el("li", {}, el("button", { type: "button", class: "link-button", "data-index": String(d.index),
      "data-seat": String(d.seat), disabled: step === null ? true : null, onclick: () => onPick(step) },
    markBadge(d.mark), " ", d.trick ? t("analysis_mark_item", { name, trick: d.trick, move })
      : t("analysis_mark_item_bid", { name, move })));
  }));
}

/** The players' summary: accuracy, marks, points lost. */
export function summaryTable(analysis) {
  const players = analysis.players || [];
  const th = (text) => el("th", { scope: "col" }, text);
  // a region that may scroll sideways takes the keyboard's focus (axe: scrollable-region-focusable)
  return el("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("analysis_summary") }, el("table", { class: "analysis-summary" },
    el("caption", {}, t("analysis_summary")),
    el("thead", {}, el("tr", {}, th(t("analysis_player")), th(t("analysis_accuracy")),
      ["inaccuracy", "mistake", "blunder"].map((m) => el("th", { scope: "col" },
        el("abbr", { title: MARK_NAME[m]() }, MARK_SIGN[m]))), th(t("analysis_lost")))),
    el("tbody", {}, players.map((p) => el("tr", {},
      el("th", { scope: "row" }, p.name),
      el("td", {}, p.accuracy === null || p.accuracy === undefined ? "—" : `${fmtNumber(p.accuracy)}%`),
      ["inaccuracy", "mistake", "blunder"].map((m) => el("td", { title: MARK_NAME[m]() }, String(p.marks?.[m] ?? 0))),
      el("td", {}, String(round((analysis.settings?.view_based ? p.lost_view : p.lost_open) ?? 0))))))));
}
