// A player's page (/p/{name}): who he is, his rating in each family with a chart of it
// over time (a point per rated game), his games played and won, his declarer statistics,
// barrel falls and bolts, and his last games with links to their replays.  Everything is
// GET /api/players/{name}; the server shows only the games whose replay the reader may see.
// What he tells of himself (a country's flag, «о себе»: plain text), the rated games he
// abandoned, the move clocks he played; a button reports him to the moderators.  His days
// of the deal of the day: his place of how many and his score against the field.

import { el, clear, api, mountHeader, loadTexts, presetName, fmtDate, fmtNumber, playerLinks, guestTag, currentPlayer } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { familyTitle, playerLabel } from "./leaderboard.js";
import { countryLabel } from "./profile.js";
import { openReport } from "./report.js";
import { playerActions } from "./presence.js";
import { daysTable } from "./daily.js";
import { controlWords } from "./time_control.js";

const NS = "http://www.w3.org/2000/svg";
const state = { page: null, families: [], me: null, error: null };
const asked = decodeURIComponent(location.pathname.replace(/^\/p\//, ""));

/** The clocks he plays: the game clocks by category («быстрая: 5 мин + 3 с за ход», or a
 * table's own «15 мин + 5 с»), then the move clocks («60 с на ход»); «—» for none. */
function clocksPlayed(p) {
  const controls = (p.time_controls ?? []).map(controlWords);
  const moves = (p.clocks ?? []).map((s) => t("player_clock", { seconds: fmtNumber(s) }));
  return [...controls, ...moves].join(", ") || "—";
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/** The rating after each game as a line with a point per game (oldest on the left), on
 * axes: the rating's lowest and highest values (and the start, if between) on the left,
 * the games by number along the bottom, so that the line can be read without hovering. */
function chart(history, label) {
  const W = 480, H = 180, L = 46, R = 12, T = 12, B = 28;
  const values = [history[0].before, ...history.map((h) => h.after)];
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 10) { lo -= 5; hi += 5; } // a flat line still has a scale
  const x = (i) => L + (values.length > 1 ? (i * (W - L - R)) / (values.length - 1) : (W - L - R) / 2);
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const marks = [...new Set([Math.round(lo), Math.round(hi), values[0]])].sort((a, b) => a - b);
  const every = Math.max(1, Math.ceil(history.length / 8)); // at most some nine numbers
  const games = values.map((_, i) => i).filter((i) => i % every === 0 || i === values.length - 1);
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, width: "100%" },
    svg("title", {}, label),
    svg("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - B }),
    svg("line", { class: "axis", x1: L, x2: W - R, y1: H - B, y2: H - B }),
    ...marks.flatMap((v) => [
      svg("line", { class: "grid", x1: L, x2: W - R, y1: y(v).toFixed(1), y2: y(v).toFixed(1) }),
      svg("text", { class: "tick", x: L - 5, y: (y(v) + 4).toFixed(1), "text-anchor": "end" }, String(v))]),
    ...games.map((i) => svg("text", { class: "tick", x: x(i).toFixed(1), y: H - B + 15, "text-anchor": "middle" }, String(i))),
    svg("text", { class: "tick axis-name", x: W - R, y: H - 2, "text-anchor": "end" }, t("player_chart_games")),
    svg("polyline", { points: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    ...history.map((h, i) => svg("circle", { class: "point", cx: x(i + 1).toFixed(1), cy: y(h.after).toFixed(1), r: 3.5 },
      svg("title", {}, `${fmtDate(h.at)}: ${h.before} → ${h.after}`))));
}

/** A day, without the hour: «2 дек. 2026 г.». */
function fmtDay(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(getLang() === "ru" ? "ru-RU" : "en-GB",
    { year: "numeric", month: "short", day: "numeric" });
}

function stat(name, label, value) {
  return [el("dt", {}, label), el("dd", { "data-stat": name }, String(value))];
}

async function load() {
  try {
    const [page, fams, me] = await Promise.all([
      api(`/api/players/${encodeURIComponent(asked)}`), api("/api/families"), currentPlayer()]);
    state.page = page;
    state.me = me ? me.player : null;
    state.families = fams.families;
    state.error = null;
  } catch (e) {
    state.error = e.message;
  }
  render();
}

function render() {
  const main = document.getElementById("main");
  const p = state.page;
  if (!p) {
    clear(main, state.error ? el("p", { class: "error-line", role: "alert" }, t("player_error", { why: state.error }))
      : el("p", { class: "muted" }, t("loading")));
    return;
  }
  const who = p.player;
  const name = playerLabel({ ...who, player: who.id, level: who.kind === "bot" ? who.id.slice(4) : null });
  document.title = `${name} — ${t("app_name")}`;
  const d = p.declarer;
  const fam = (f) => { const found = state.families.find((x) => x.family === f); return found ? familyTitle(found) : f; };
  const rated = Object.entries(p.families);
  clear(main,
    el("h1", { id: "player-name" }, name),
    el("p", { class: "lead" }, who.kind === "guest" ? [guestTag(), " "] : null,
      who.kind === "bot" ? t("player_bot") : p.since ? t("player_since", { date: fmtDay(p.since) }) : null),
    p.country ? el("p", { id: "player-country" }, t("profile_country"), ": ", countryLabel(p.country)) : null,
    p.about ? el("section", { "aria-labelledby": "player-about-title" },
      el("h2", { id: "player-about-title" }, t("player_about")),
      el("p", { id: "player-about", class: "about" }, p.about)) : null,
    who.kind !== "bot" && state.me && state.me.id !== who.id
      ? el("p", {}, el("button", { type: "button", id: "player-report", class: "small",
        "aria-label": t("report_label", { name }),
        onclick: (ev) => openReport(name, { player: who.id }, ev.currentTarget) }, t("report"))) : null,
    who.kind === "bot" ? null : playerActions(who.id, who.name),
    el("h2", {}, t("player_totals")),
    el("dl", { class: "stats", id: "player-totals" }, stat("played", t("player_played"), p.played), stat("won", t("player_won"), p.won),
      stat("falls", t("player_falls"), p.falls), stat("bolts", t("player_bolts"), p.bolts),
      stat("abandoned", t("player_abandoned"), p.abandoned ?? 0),
      stat("clocks", t("player_clocks"), clocksPlayed(p))),
    el("h2", {}, t("player_declarer")),
    el("dl", { class: "stats", id: "player-declarer" }, stat("bids", t("player_bids"), d.bids), stat("made", t("player_made"), d.made),
      stat("average", t("player_average"), d.average_contract === null ? "—" : fmtNumber(d.average_contract)),
      stat("conceded", t("player_conceded"), d.conceded)),
    el("h2", {}, t("player_ratings")),
    rated.length ? rated.map(([f, r]) => el("section", { class: "rating-family", "data-family": f },
      el("h3", {}, `${fam(f)}: ${r.rating}`),
      r.history.length ? chart(r.history, t("player_chart", { family: fam(f), rating: r.rating })) : null))
      : el("p", { class: "muted" }, t("player_no_rating")),
    el("h2", {}, t("player_games")),
    p.games.length ? el("table", { class: "games", id: "player-games" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, t("col_finished")),
        el("th", { scope: "col" }, t("col_preset")),
        el("th", { scope: "col" }, t("col_players")),
        el("th", { scope: "col" }, t("player_place")),
        el("th", { scope: "col" }, t("player_score")),
        el("th", { scope: "col" }, t("col_actions")))),
      el("tbody", {}, p.games.map((g) => el("tr", { "data-game": g.id },
        el("td", {}, fmtDate(g.finished)),
        el("td", {}, presetName(g.preset)),
        el("td", {}, playerLinks(g.players, g.player_ids ?? [], g.seat, g.guests ?? [])),
        el("td", {}, String(g.place)),
        el("td", {}, String(g.score)),
        el("td", {}, el("a", { class: "button small", href: `/replay/${encodeURIComponent(g.id)}` }, t("open_replay")))))))
      : el("p", { class: "muted" }, t("player_no_games")),
    who.kind === "bot" ? null : [
      el("h2", { id: "player-daily-title" }, t("player_daily")),
      p.daily && p.daily.length ? el("p", { class: "muted" }, t("player_daily_lead")) : null,
      daysTable(p.daily ?? [], "player-daily", t("player_daily_empty"))],
  );
}

mountHeader(null);
render();
load();
loadTexts(getLang()).then(render);
onLangChange((lang) => loadTexts(lang).then(render));
