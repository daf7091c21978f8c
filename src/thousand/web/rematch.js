// The table page between games (docs/server.md "Quick play", "Ratings", "Rematch"): the
// button that leaves a table still waiting for players, the rating changes a finished
// game made («+31 → 1531»), and «Ещё партию» — ask for a rematch, see who agreed, and go
// to the new table once everybody has.  table.js owns the page; it calls setup() once,
// onSnapshot() with every snapshot, onMessage() with the messages it does not know, and
// puts leaveButton() and gameOverBox() where they belong.

import { el, clear, api, announce, guestTag } from "./common.js";
import { t } from "./i18n.js";

const site = { ctx: null, rematch: null, ratings: null, unratedWhy: null, box: null, guests: [] };

/** ctx: { tableId, send(msg) -> bool, seat() -> number|null, names() -> [string],
 * token() -> string|null, over() -> bool }. */
export function setup(ctx) {
  site.ctx = ctx;
}

export function onSnapshot(msg) {
  site.rematch = msg.rematch ?? null;
  site.ratings = Array.isArray(msg.ratings) ? msg.ratings : null;
  site.guests = (msg.seats ?? []).filter((s) => s.guest).map((s) => s.seat);
  renderBox();
}

/** A message of the site's (true), or not (false: table.js goes on with it). */
export function onMessage(msg) {
  if (msg.type === "rematch_asked") {
    site.rematch = { asked: msg.asked ?? [], waiting: msg.waiting ?? [], table: msg.table ?? null };
    renderBox();
    return true;
  }
  if (msg.type === "ratings") {
    site.ratings = Array.isArray(msg.changes) ? msg.changes : [];
    site.unratedWhy = msg.why ?? null; // a game that does not count says why
    renderBox();
    return true;
  }
  if (msg.type === "rematch") {
    // my seat at the new table: kept as every seat is, then the page moves there
    localStorage.setItem(`thousand.seat.${msg.table}`, JSON.stringify({ seat: msg.seat, token: msg.token }));
    location.href = msg.url || `/t/${encodeURIComponent(msg.table)}`;
    return true;
  }
  return false;
}

/** «Уйти из-за стола»: a person gives back his seat at a waiting table, then the lobby. */
/** The «leave the table» button; `warning`, when given, is asked to be confirmed first
 * (a rated game after the deal: leaving loses it). */
export function leaveButton(warning = null) {
  return el("button", { type: "button", class: "small", id: "leave-button",
    onclick: () => leave(warning) }, t("leave_table"));
}

async function leave(warning) {
  const token = site.ctx?.token();
  if (!token) return;
  if (warning && !window.confirm(warning)) return;
  try {
    await api(`/api/tables/${encodeURIComponent(site.ctx.tableId)}/leave`, { method: "POST", body: { token } });
    localStorage.removeItem(`thousand.seat.${site.ctx.tableId}`);
    location.href = "/";
  } catch (err) {
    announce(t("leave_failed", { why: err.message }), "error");
  }
}

/** The end dialog's part: the rating changes and the rematch (kept up to date). */
export function gameOverBox() {
  site.box = el("div", { class: "rematch", id: "rematch-box", "aria-live": "polite" });
  renderBox();
  return site.box;
}

function nameOf(seat) {
  const nm = site.ctx?.names() ?? [];
  return nm[seat] ?? t("seat_n", { n: seat + 1 });
}

// a placeholder the catalogue's templates never contain: where an element goes in a line
const MARK = "\u0000";

/** A template's text with `node` (an element, or a list of them) where MARK was. */
function around(text, node) {
  const [before, after = ""] = text.split(MARK);
  return [before, node, after].flat();
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

function renderBox() {
  const box = site.box;
  if (!box || !site.ctx) return;
  const seat = site.ctx.seat();
  const parts = [];
  if (site.ratings && site.ratings.length) {
    // «Рейтинг: Аня +31 → 1531; …», each name a link to the player's page
    const items = site.ratings.map((c) => around(t("rating_change", { name: MARK, delta: signed(c.delta), after: c.after }),
      [el("a", { href: `/p/${encodeURIComponent(c.player)}`, class: "player-link" }, nameOf(c.seat)),
        site.guests.includes(c.seat) ? [" ", guestTag()] : null]));
    parts.push(el("p", { class: "ratings-line", id: "rating-changes" },
      around(t("rating_changes", { items: MARK }), items.flatMap((x, i) => (i ? ["; ", ...x] : x)))));
  } else if (site.ratings) {
    const why = { training: t("not_rated_training"), rules: t("not_rated_rules") }[site.unratedWhy];
    parts.push(el("p", { class: "muted", id: "rating-changes" }, t("not_rated"), why ? ` ${why}` : ""));
  }
  const r = site.rematch;
  if (r && r.tournament) {
    // a tournament's table: the next round pairs the players, the way back is its page
    parts.push(el("p", {}, el("a", { href: r.tournament, id: "tournament-link", class: "button primary" },
      t("back_to_tournament"))));
  } else if (r) {
    if (r.table) {
      parts.push(el("p", {}, t("rematch_laid"), " ",
        el("a", { href: `/t/${encodeURIComponent(r.table)}`, id: "rematch-link" }, t("rematch_watch"))));
    } else {
      const asked = r.asked ?? [];
      if (asked.length) parts.push(el("p", { id: "rematch-agreed" }, t("rematch_agreed", { names: asked.map(nameOf).join(", ") })));
      if (seat !== null && seat !== undefined && (r.waiting ?? []).includes(seat)) {
        parts.push(el("button", { type: "button", class: "primary", id: "rematch-button",
          onclick: () => {
            if (!site.ctx.send({ type: "rematch" })) announce(t("rematch_offline"), "error");
          } }, t("rematch_button")));
      } else if (seat !== null && seat !== undefined && asked.includes(seat)) {
        parts.push(el("p", { class: "muted" }, t("rematch_you_asked", { names: (r.waiting ?? []).map(nameOf).join(", ") })));
      } else {
        // never silently without the button: a spectator (no seat of his here) is told
        parts.push(el("p", { class: "muted", id: "rematch-why" }, t("rematch_players_only")));
      }
    }
  } else if (site.ctx.over && site.ctx.over()) {
    parts.push(el("p", { class: "muted", id: "rematch-why" }, t("rematch_unavailable")));
  }
  clear(box, ...parts);
}
