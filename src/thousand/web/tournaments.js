// Tournaments (/tournaments: the list and a form to make one; /tournaments/<id>: one
// tournament — its players, registering, starting, each round's tables with links to
// play or watch them, the standings).  The server pairs and scores (docs/server.md
// "Tournaments"); this page only shows it, asking again every two seconds while the
// tournament is not over, since its tables end on their own.

import { el, clear, api, mountHeader, loadTexts, presetName, levelName, shownName, currentPlayer, nameInput as nameField,
  guestTag } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { clockBody, moveClockField, timeControlField } from "./time_control.js";

const LEVELS = ["random", "beginner", "heuristic", "strong", "expert"];
const POLL_MS = 2000;
const id = decodeURIComponent(location.pathname.split("/")[2] ?? "");
// loaded: the player and the presets have come (the form is drawn from then on only: drawn
// before, it was drawn again under a person's typing and clicking as they came, and a
// click between its press and its release landed on no button)
const state = { list: null, one: null, presets: [], error: null, me: null, busy: false, loaded: false };

/** An error from the API in the page's language: the tournament's own refusals by their
 * code, the rest by the server's words. */
function errorWords(e) {
  const known = {
    started: () => t("tour_err_started"),
    few: () => t("tour_err_few"),
    not_creator: () => t("tour_err_not_creator"),
    registered: () => t("tour_err_registered"),
    not_registered: () => t("tour_err_not_registered"),
    taken: () => t("tour_err_taken"),
    few_duplicate: () => t("tour_err_few_duplicate"),
    bad_scoring: () => t("tour_err_bad_scoring"),
    bad_format: () => t("tour_err_bad_format"),
  }[e.code];
  return t("tour_error", { why: known ? known() : e.message });
}

function statusWord(status) {
  if (status === "registering") return t("tour_status_registering");
  if (status === "running") return t("tour_status_running");
  return t("tour_status_over");
}

function formatWord(format) {
  return format === "swiss" ? t("tour_swiss") : t("tour_round_robin");
}

function scoringWord(scoring) {
  return scoring === "duplicate" ? t("tour_duplicate_short") : t("tour_places");
}

function dealsWord(deals) {
  return deals ? t("tour_deals_n", { n: deals }) : t("tour_whole");
}

/** A player's name as shown: a bot's level in words («случайный 2»). */
function who(name) {
  const entry = state.one?.entries.find((e) => e.name === name);
  const number = entry && entry.kind === "bot" && entry.level ? / (\d+)$/.exec(name) : null;
  if (number) return `${levelName(entry.level)} ${number[1]}`; // «любитель 2» / "amateur 2"
  return shownName(name);
}

/** {@link who}, with the guest's mark when a person without an account entered so. */
function whoMarked(name) {
  const entry = state.one?.entries.find((e) => e.name === name);
  return entry && entry.guest ? [who(name), " ", guestTag()] : who(name);
}

async function act(fn) {
  if (state.busy) return;
  state.busy = true;
  state.error = null;
  try {
    await fn();
  } catch (e) {
    state.error = errorWords(e);
  }
  state.busy = false;
  render();
}

// ------------------------------------------------------------------ the list

function field(label, input) {
  return el("label", { class: "field" }, el("span", {}, label), " ", input);
}

/** What the form holds so far: the page draws itself again as its data come (the
 * presets, the player, the list), and what was typed must outlive that. */
// a clock always (without one a player who left holds the next round for ever): the time
// control «обычная», as in the lobby and quick play, or a move clock ticked on purpose
const draft = { name: null, preset: "classic", format: "swiss", scoring: "places", rounds: "3", deals: "",
  control: "normal", clockOn: false, clock: 60, bots: "0", level: "heuristic", play: true, myName: "" };

/** An input or select that keeps its value in `draft[key]`. */
function kept(tag, key, attrs, ...children) {
  const node = el(tag, { ...attrs, oninput: () => { draft[key] = node.type === "checkbox" ? node.checked : node.value; } }, ...children);
  if (node.type === "checkbox") node.checked = draft[key];
  else node.value = draft[key];
  return node;
}

function createForm() {
  const needsName = !(state.me && state.me.player && state.me.player.name);
  if (draft.name === null) draft.name = t("tour_name_default");
  const name = kept("input", "name", { id: "tour-name", type: "text", maxlength: "80", required: true });
  const preset = kept("select", "preset", { id: "tour-preset" },
    (state.presets.length ? state.presets : [{ name: "classic" }]).map((p) =>
      el("option", { value: p.name }, p.title || presetName(p.name))));
  const format = kept("select", "format", { id: "tour-format" },
    el("option", { value: "swiss" }, t("tour_swiss")),
    el("option", { value: "round-robin" }, t("tour_round_robin")));
  const scoring = kept("select", "scoring", { id: "tour-scoring" },
    el("option", { value: "places" }, t("tour_places")),
    el("option", { value: "duplicate" }, t("tour_duplicate")));
  const rounds = kept("input", "rounds", { id: "tour-rounds", type: "number", min: "1", max: "50" });
  const deals = kept("input", "deals", { id: "tour-deals", type: "number", min: "1" });
  const clock = moveClockField("tour-clock", draft, { min: "0", step: "any" });
  const bots = kept("input", "bots", { id: "tour-bots", type: "number", min: "0", max: "60" });
  const level = kept("select", "level", { id: "tour-bot-level" },
    LEVELS.map((l) => el("option", { value: l }, levelName(l))));
  const play = kept("input", "play", { id: "tour-play", type: "checkbox" });
  const myName = needsName ? nameField("tour-my-name", state.me, draft.myName) : null;
  if (myName) myName.addEventListener("input", () => { draft.myName = myName.value; });
  const submit = (ev) => {
    ev.preventDefault();
    const number = (input) => (input.value.trim() === "" ? null : Number(input.value));
    const body = {
      name: name.value, preset: preset.value, format: format.value, scoring: scoring.value,
      rounds: Number(rounds.value),
      deals: number(deals), ...clockBody(draft.control, draft.clockOn, draft.clock), play: play.checked,
      bots: Array.from({ length: Number(bots.value) || 0 }, () => level.value),
    };
    if (myName && myName.value.trim()) body.player_name = myName.value.trim();
    act(async () => {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.href = made.url;
    });
  };
  return el("form", { id: "tour-form", class: "join-form", onsubmit: submit },
    el("h2", {}, t("tour_new")),
    field(t("tour_name"), name), field(t("tour_preset"), preset), field(t("tour_format"), format),
    field(t("tour_scoring"), scoring),
    field(t("tour_rounds"), rounds), field(t("tour_deals"), deals),
    timeControlField("tour-time-control", draft.control, (v) => { draft.control = v; }, { none: false }),
    clock,
    field(t("tour_bots"), bots), field(t("tour_bot_level"), level),
    myName ? field(t("tour_my_name"), myName) : null,
    el("label", { class: "field inline" }, play, t("tour_play")),
    el("button", { type: "submit", id: "tour-create", class: "primary big" }, t("tour_create")));
}

function renderList(main) {
  const list = state.list ?? [];
  clear(main,
    el("h1", {}, t("tour_title")),
    el("p", { class: "explain" }, t("tour_lead")),
    state.error ? el("p", { class: "error-line", role: "alert" }, state.error) : null,
    list.length ? el("table", { class: "games", id: "tour-list" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, t("tour_col_name")),
        el("th", { scope: "col" }, t("tour_preset")),
        el("th", { scope: "col" }, t("tour_format")),
        el("th", { scope: "col" }, t("tour_rounds")),
        el("th", { scope: "col" }, t("col_players")),
        el("th", { scope: "col" }, t("tour_col_status")))),
      el("tbody", {}, list.map((x) => el("tr", { "data-tournament": x.id },
        el("td", {}, el("a", { href: x.url }, x.name)),
        el("td", {}, presetName(x.preset)),
        el("td", {}, x.scoring === "duplicate" ? `${formatWord(x.format)}, ${scoringWord(x.scoring)}` : formatWord(x.format)),
        el("td", {}, String(x.rounds)),
        el("td", {}, String(x.players)),
        el("td", {}, statusWord(x.status))))))
      : el("p", { class: "muted" }, state.list === null ? t("loading") : t("tour_none")),
    state.loaded ? createForm() : null);
}

// ------------------------------------------------------------------ one tournament

/** The standings, in a box that scrolls sideways on a phone (seven columns do not fit
 * 390 pixels; the page itself must not scroll sideways). */
function standingsTable(one) {
  return el("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("tour_standings") },
    standingsOnly(one));
}

/** A duplicate score as a person reads it: its sign always, «+12.5», «−40». */
function signed(x) {
  return x > 0 ? `+${x}` : x < 0 ? `\u2212${-x}` : "0";
}

function standingsOnly(one) {
  // a duplicate tournament ranks by its duplicate scores: their column comes first
  const dup = one.scoring === "duplicate";
  return el("table", { class: "games", id: "tour-standings" },
    el("caption", {}, one.status === "over" ? t("tour_final") : t("tour_standings")),
    el("thead", {}, el("tr", {},
      [t("tour_col_place"), t("tour_col_player"), dup ? t("tour_col_duplicate") : null, t("tour_col_points"),
        t("tour_col_games"), t("tour_col_byes"), t("tour_col_firsts"), t("tour_col_score")]
        .filter((h) => h !== null).map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, one.standings.map((s) => el("tr", { "data-player": s.name },
      el("td", {}, String(s.place)), el("td", {}, whoMarked(s.name)),
      dup ? el("td", { class: "tour-duplicate" }, signed(s.duplicate ?? 0)) : null,
      el("td", {}, String(s.points)),
      el("td", {}, String(s.games)), el("td", {}, String(s.byes)), el("td", {}, String(s.firsts)),
      el("td", {}, String(s.score))))));
}

function roundBox(one, rnd) {
  const mine = new Set(one.entries.filter((e) => e.me).map((e) => e.name));
  return el("section", { class: "tour-round", "data-round": String(rnd.round) },
    el("h3", {}, t("tour_round", { n: rnd.round })),
    el("ol", {}, rnd.tables.map((tab, i) => {
      const over = Array.isArray(tab.scores);
      const players = tab.players.flatMap((p, seat) => [seat ? ", " : null, whoMarked(p),
        over ? ` ${tab.scores[seat]} (${tab.points[seat]})` : null]);
      const seated = tab.players.some((p) => mine.has(p));
      const playing = !over && seated;
      // a duplicate round's tables are their players' only (the cards are the same at all)
      const open = tab.table && (one.scoring !== "duplicate" || seated);
      return el("li", { "data-table": tab.table ?? "" },
        el("span", {}, t("tour_table", { n: i + 1 }), ": ", players, " "),
        open ? el("a", { class: "button small", href: `/t/${encodeURIComponent(tab.table)}` },
          playing ? t("tour_play_link") : t("tour_watch_link")) : null);
    })),
    rnd.byes.length ? el("p", { class: "muted" }, t("tour_byes", { names: rnd.byes.map(who).join(", ") })) : null);
}

function renderOne(main) {
  const one = state.one;
  if (!one) {
    clear(main, state.error ? el("p", { class: "error-line", role: "alert" }, state.error)
      : el("p", { class: "muted" }, t("loading")));
    return;
  }
  const registering = one.status === "registering";
  // a guest without a name gives one to register (his seats at the tables carry it)
  const needsName = registering && !one.registered && !(state.me && state.me.player && state.me.player.name);
  const myName = needsName ? nameField("tour-my-name", state.me, document.getElementById("tour-my-name")?.value) : null;
  const post = (what) => act(async () => {
    const body = what === "register" && myName && myName.value.trim() ? { player_name: myName.value.trim() } : {};
    state.one = await api(`/api/tournaments/${encodeURIComponent(one.id)}/${what}`, { method: "POST", body });
    if (what === "register") state.me = await currentPlayer(true);
  });
  clear(main,
    el("h1", { id: "tour-title" }, one.name),
    el("p", { id: "tour-meta" }, [presetName(one.preset), formatWord(one.format), scoringWord(one.scoring),
      t("tour_rounds_n", { n: one.rounds }), dealsWord(one.deals), t("tour_players_n", { n: one.players })]
      .join(" · ").replace(/^./, (c) => c.toUpperCase()), // one capital, the line's first
    " · ", el("strong", { id: "tour-status", "data-status": one.status }, statusWord(one.status))),
    one.scoring === "duplicate" ? el("p", { class: "explain", id: "tour-duplicate-note" }, t("tour_duplicate_note")) : null,
    state.error ? el("p", { class: "error-line", role: "alert" }, state.error) : null,
    el("h2", {}, t("tour_entries")),
    el("ul", { id: "tour-entries" }, one.entries.map((e) => el("li", { "data-kind": e.kind },
      whoMarked(e.name), e.kind === "bot" ? ` (${t("tour_bot")})` : "", e.me ? ` (${t("tour_you")})` : ""))),
    registering ? el("p", {},
      myName ? field(t("tour_my_name"), myName) : null, " ",
      one.registered
        ? el("button", { type: "button", id: "tour-unregister", onclick: () => post("unregister") }, t("tour_unregister"))
        : el("button", { type: "button", id: "tour-register", onclick: () => post("register") }, t("tour_register")),
      " ",
      one.mine ? el("button", { type: "button", id: "tour-start", onclick: () => post("start") }, t("tour_start")) : null)
      : null,
    one.pairings.length ? el("div", { id: "tour-rounds" }, one.pairings.map((r) => roundBox(one, r))) : null,
    one.status !== "registering" ? standingsTable(one) : null);
}

function render() {
  const main = document.getElementById("main");
  if (id) renderOne(main);
  else renderList(main);
}

async function refresh() {
  try {
    if (id) state.one = await api(`/api/tournaments/${encodeURIComponent(id)}`);
    else state.list = (await api("/api/tournaments")).tournaments;
  } catch (e) {
    if (id && e.status === 404) state.error = t("tour_not_found");
    else if (!state.error) state.error = errorWords(e);
  }
  if (!state.busy) render();
  if (id && (!state.one || state.one.status !== "over")) setTimeout(refresh, POLL_MS);
}

mountHeader("nav_tournaments");
onLangChange(render);
render();
(async () => {
  await loadTexts(getLang()); // the presets' and levels' names for people
  state.me = await currentPlayer();
  if (!id) {
    try {
      state.presets = (await api(`/api/rules?lang=${getLang()}`)).presets ?? [];
    } catch (e) {
      state.presets = [];
    }
  }
  state.loaded = true;
  await refresh();
})();
