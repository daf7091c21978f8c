// The score sheet (запись) and the chart of the scores, from the table's events:
// one row per `deal_scored`, with the marks that follow it (barrel, bolt, penalty, ...).

import { el, seatName, guestTag } from "./common.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const MARK_EVENTS = new Set([
  "barrel_on", "fall", "knocked_off", "barrel_timeout", "bolt", "penalty", "samosval",
  "bolt_samosval", "fall_reset",
]);
export const SEAT_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

function markWord(ev) {
  switch (ev.type) {
    case "barrel_on": return t("sheet_barrel_on");
    case "fall": return t("sheet_fall");
    case "knocked_off": return t("sheet_knocked_off");
    case "barrel_timeout": return t("sheet_barrel_timeout");
    case "bolt": return t("sheet_bolt");
    case "penalty": return t("sheet_penalty");
    case "samosval": return t("sheet_samosval");
    case "bolt_samosval": return t("sheet_bolt_samosval");
    case "fall_reset": return t("sheet_fall_reset");
    default: return ev.type;
  }
}

/** Rows from events in order: {number, dealer, declarer, contract, outcome, made, dark,
 * golden, changes, scores, marks: [[text...] by seat], restart}. */
export function sheetRows(events) {
  const rows = [];
  let current = null;
  for (const ev of events) {
    if (ev.type === "deal_scored") {
      current = {
        number: ev.number, dealer: ev.dealer, declarer: ev.declarer, contract: ev.contract,
        outcome: ev.outcome, made: ev.made, dark: ev.dark, golden: ev.golden,
        redeal_by: ev.redeal_by, changes: ev.changes || [], scores: ev.scores || [],
        marks: (ev.scores || []).map(() => []), restart: false, v: ev.v,
      };
      rows.push(current);
    } else if (current && ev.v === current.v && MARK_EVENTS.has(ev.type)) {
      if (typeof ev.seat === "number" && current.marks[ev.seat]) {
        const amount = ev.amount ? ` ${ev.amount > 0 ? "+" : ""}${ev.amount}` : "";
        current.marks[ev.seat].push({ text: markWord(ev) + (ev.type === "barrel_on" ? "" : amount),
          loud: ev.type !== "barrel_on" && ev.type !== "bolt" });
      }
    } else if (current && ev.v === current.v && ev.type === "golden_restart") {
      current.restart = true;
    }
  }
  return rows;
}

function resultWord(row) {
  if (row.outcome === "redeal") return t("sheet_redeal");
  if (row.outcome === "conceded") return t("sheet_conceded");
  return row.made ? t("sheet_made") : t("sheet_failed");
}

/** The sheet as an HTML table in a scrolling region named `label` (a page that shows the
 * sheet twice, in its side panel and in a dialog, gives each its own name); `guests[s]`
 * marks seat s's name as a guest's, as every page marks a name that is no account's. */
export function sheetTable(rows, names, lang, label = null, guests = []) {
  const n = names.length;
  const head = el("tr", {},
    el("th", { scope: "col" }, t("sheet_number")),
    el("th", { scope: "col", class: "c-dealer" }, t("sheet_dealer")),
    el("th", { scope: "col", class: "c-declarer" }, t("sheet_declarer")),
    el("th", { scope: "col", class: "c-contract" }, t("sheet_contract")),
    el("th", { scope: "col", class: "c-result" }, t("sheet_result")),
    names.map((name, s) => el("th", { scope: "col", class: "player" },
      el("span", { class: "swatch", style: `background:${SEAT_COLORS[s % 4]}`, "aria-hidden": "true" }), name,
      guests[s] ? [" ", guestTag()] : null)),
  );
  const body = el("tbody");
  if (!rows.length) {
    body.append(el("tr", {}, el("td", { colspan: String(5 + n), class: "muted" }, t("sheet_empty"))));
  }
  rows.forEach((r, i) => {
    const contract = r.outcome === "redeal" || r.contract === null || r.contract === undefined
      ? "—" : [String(r.contract), r.dark ? t("sheet_dark") : "", r.golden ? t("sheet_golden") : ""].filter(Boolean).join(" ");
    const cls = r.outcome === "redeal" ? "redeal" : r.outcome === "conceded" ? "conceded" : r.made ? "made" : "failed";
    const tr = el("tr", { class: i === rows.length - 1 ? "latest" : null },
      el("th", { scope: "row" }, String(r.number)),
      el("td", { class: "c-dealer" }, seatName(r.dealer, names, lang)),
      el("td", { class: "c-declarer" }, r.declarer === null || r.declarer === undefined ? "—" : seatName(r.declarer, names, lang)),
      el("td", { class: "c-contract" }, contract),
      el("td", { class: `c-result res ${cls}` }, resultWord(r),
        r.outcome === "redeal" && typeof r.redeal_by === "number" ? ` (${seatName(r.redeal_by, names, lang)})` : "",
        r.restart ? el("div", { class: "note" }, t("sheet_golden_restart")) : null),
    );
    for (let s = 0; s < n; s++) {
      const change = r.changes[s] ?? 0;
      tr.append(el("td", { class: "cell" },
        el("span", { class: "total" }, String(r.scores[s] ?? "")),
        change ? el("span", { class: `change ${change > 0 ? "up" : "down"}` }, ` (${change > 0 ? "+" : ""}${change})`) : null,
        (r.marks[s] || []).map((m) => el("div", { class: m.loud ? "mark loud" : "mark" }, m.text)),
      ));
    }
    body.append(tr);
  });
  return el("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": label || t("sheet_title") }, el("table", { class: "sheet" },
    el("caption", { class: "sr-only" }, t("sheet_title")),
    el("thead", {}, head), body));
}

export function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** A line chart of the scores after each deal (SVG), with the win and barrel lines. */
export function scoreChart(rows, names, rules = {}) {
  const n = names.length;
  const series = names.map((_, s) => [0, ...rows.map((r) => r.scores[s] ?? 0)]);
  const all = series.flat();
  const win = rules.win_score ?? 1000;
  const barrel = typeof rules.barrel === "number" ? rules.barrel : null;
  let lo = Math.min(0, ...all);
  let hi = Math.max(win, ...all);
  if (hi - lo < 100) hi = lo + 100;
  const W = 640;
  const H = 300;
  const L = 48;
  const R = 12;
  const T = 14;
  const B = 28;
  const steps = Math.max(1, rows.length);
  const x = (i) => L + ((W - L - R) * i) / steps;
  const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  const summary = names.map((name, s) => `${name} ${series[s][series[s].length - 1]}`).join(", ");
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": t("chart_label", { scores: summary }) });
  svg.append(svgEl("title", {}, t("chart_title")));
  // grid
  const span = hi - lo;
  const tick = span > 1500 ? 500 : span > 600 ? 200 : 100;
  for (let v = Math.ceil(lo / tick) * tick; v <= hi; v += tick) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }));
    svg.append(svgEl("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)));
  }
  svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(win), y2: y(win), class: "win" }));
  svg.append(svgEl("text", { x: W - R - 2, y: y(win) - 4, "text-anchor": "end", class: "tick" }, String(win)));
  if (barrel !== null && barrel > lo && barrel < hi) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(barrel), y2: y(barrel), class: "barrel" }));
    svg.append(svgEl("text", { x: W - R - 2, y: y(barrel) - 4, "text-anchor": "end", class: "tick" },
      `${t("chart_barrel")} ${barrel}`));
  }
  const every = Math.max(1, Math.ceil(steps / 12));
  for (let i = 0; i <= steps; i += every) {
    svg.append(svgEl("text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "tick" }, String(i)));
  }
  for (let s = 0; s < n; s++) {
    const pts = series[s].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { points: pts, fill: "none", stroke: SEAT_COLORS[s % 4],
      "stroke-width": 2.5, "stroke-linejoin": "round", class: `line s${s}` }));
    const last = series[s].length - 1;
    svg.append(svgEl("circle", { cx: x(last), cy: y(series[s][last]), r: 3.5, fill: SEAT_COLORS[s % 4] }));
  }
  const legend = el("ul", { class: "legend" }, names.map((name, s) =>
    el("li", {}, el("span", { class: "swatch", style: `background:${SEAT_COLORS[s % 4]}`, "aria-hidden": "true" }),
      `${name}: ${series[s][series[s].length - 1]}`)));
  return el("figure", { class: "chart-box" }, svg, legend);
}
