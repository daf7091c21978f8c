// Who is here, challenges and friends on the pages (docs/server.md "Presence, challenges and
// friends"): one lobby socket per page (/ws/lobby, docs/protocol.md "The lobby socket")
// carries who is online and this player's challenges live; the lobby shows them in its
// «Кто здесь» box (presenceBox), the friends page (friends.js) reads the same state.
// A challenge accepted by either side takes both to the table.

import { el, clear, api, announce, presetName, levelName, currentPlayer, guestTag, NAME_KEY } from "./common.js";
import { t } from "./i18n.js";
import { moveClockField } from "./time_control.js";

const LEVELS = ["random", "beginner", "heuristic", "strong", "expert"];
// the players a list shows at most (the counts say how many there are)
const SHOWN_MAX = 100;

const live = {
  me: null, // this player's id (the socket's hello)
  named: true, // false: a guest without a name, whom nobody sees
  online: new Map(), // id -> {id, name, guest, status, table}
  counts: { online: 0, lobby: 0, waiting: 0, playing: 0 },
  challenges: new Map(), // id -> challenge (docs/server.md), the open ones
  follows: new Set(),
  socket: null,
  retry: 500,
  listeners: new Set(),
  going: null, // the table this page is on its way to
};

function changed() {
  for (const f of live.listeners) f();
}

/** Open the page's lobby socket once (and again after a drop); `listener` is called
 * whenever who is here or the challenges change. */
export async function watchPresence(listener) {
  if (listener) live.listeners.add(listener);
  if (live.socket) return live;
  live.socket = "opening";
  const me = await currentPlayer();
  const player = me && me.player;
  if (player && player.kind === "guest" && !player.name) {
    // a guest who typed a name in a form is seen under it
    const typed = (localStorage.getItem(NAME_KEY) ?? "").trim();
    if (typed) {
      try {
        await api("/api/me/name", { method: "POST", body: { name: typed } });
      } catch (e) {
        /* a name an account has: he stays unseen until he chooses another */
      }
    }
    live.named = Boolean(typed);
  }
  await loadChallenges();
  try {
    const friends = await api("/api/friends");
    live.follows = new Set(friends.follows.map((f) => f.id));
  } catch (e) {
    /* no session: nobody followed */
  }
  open();
  return live;
}

async function loadChallenges() {
  try {
    const r = await api("/api/challenges");
    live.challenges = new Map(r.challenges.map((c) => [c.id, c]));
  } catch (e) {
    /* no session yet */
  }
}

function open() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  live.socket = ws;
  ws.addEventListener("open", () => {
    live.retry = 500;
  });
  ws.addEventListener("message", (e) => {
    let m;
    try {
      m = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    heard(m);
    changed();
  });
  ws.addEventListener("close", () => {
    live.socket = null;
    setTimeout(() => {
      if (!live.socket) {
        loadChallenges().then(open);
      }
    }, live.retry);
    live.retry = Math.min(live.retry * 2, 15000);
  });
}

function heard(m) {
  if (m.type === "hello") {
    live.me = m.me;
  } else if (m.type === "presence") {
    if (m.full) live.online.clear();
    for (const p of m.players) live.online.set(p.id, p);
    for (const id of m.gone ?? []) live.online.delete(id);
    live.counts = m.counts;
  } else if (m.type === "challenge") {
    told(m.challenge);
  }
}

/** What became of a challenge: kept while open, said when answered; an accepted one
 * takes this page to its table. */
function told(c) {
  const mine = c.from.id === live.me;
  const other = mine ? c.to.name : c.from.name;
  if (c.status === "open") {
    const fresh = !live.challenges.has(c.id);
    live.challenges.set(c.id, c);
    if (fresh && !mine) announce(t("challenge_new", { name: other }));
    return;
  }
  live.challenges.delete(c.id);
  if (c.status === "accepted" && c.table && live.going !== c.table) {
    live.going = c.table; // told twice (the answer, the socket): one way there
    announce(t("challenge_accepted"));
    location.href = `/t/${encodeURIComponent(c.table)}`;
  } else if (c.status === "declined" && mine) {
    announce(t("challenge_declined", { name: other }));
  } else if (c.status === "cancelled" && !mine) {
    announce(t("challenge_cancelled", { name: other }));
  }
}

/** Draw the presence again (the lobby calls it once the rules' presets have come). */
export function redrawPresence() {
  changed();
}

export function presenceState() {
  return live;
}

/** A player's presence in words: where he is. */
export function statusWords(p) {
  const words = { lobby: () => t("status_lobby"), waiting: () => t("status_waiting"),
    playing: () => t("status_playing") };
  return p && words[p.status] ? words[p.status]() : t("friend_offline");
}

/** The link to watch a player's game (null when he is at no table). */
export function watchLink(p) {
  return p && p.table ? el("a", { href: `/t/${encodeURIComponent(p.table)}` }, t("watch_game")) : null;
}

// ------------------------------------------------------------------ the lobby's box

// the player being challenged: {id, name}; a player's page sends one here as
// /?challenge=<id>&name=<name>
const asked = new URLSearchParams(location.search);
let form = asked.get("challenge") ? { id: asked.get("challenge"), name: asked.get("name") ?? "" } : null;
const choice = { preset: "classic", clockOn: false, clock: 60, level: "heuristic" };

/** The lobby's «Кто здесь» box; `presets()`: the rules catalogue's (null until loaded).
 * Its parts are drawn again as the news comes, the challenge form only when it opens or
 * closes (what is being chosen in it stays). */
export function presenceBox(presets = () => null) {
  const parts = {
    counts: el("p", { id: "presence-counts" }),
    unnamed: el("p", { class: "explain", hidden: true }, t("presence_unnamed")),
    challenges: el("div", { id: "challenges" }),
    form: el("div", { id: "challenge-form-box" }),
    list: el("div", { id: "online" }),
    formFor: undefined,
    known: false,
  };
  const box = el("section", { id: "presence", class: "panel presence", "aria-labelledby": "presence-title" },
    el("h2", { id: "presence-title" }, t("presence_title")),
    parts.counts, parts.unnamed, parts.challenges, parts.form, parts.list);
  const draw = () => {
    if (box.dataset.drawn && !box.isConnected) {
      live.listeners.delete(draw); // the lobby drew itself again (its language changed)
      return;
    }
    box.dataset.drawn = "1";
    render(parts, presets);
  };
  draw();
  watchPresence(draw);
  return box;
}

function render(parts, presets) {
  const active = document.activeElement;
  const focused = active && active.id && (parts.list.contains(active) || parts.challenges.contains(active)) ? active.id : null;
  parts.counts.textContent = t("presence_counts", live.counts);
  parts.unnamed.hidden = live.named;
  clear(parts.challenges, ...challengeLists());
  const known = Boolean(presets());
  if (parts.formFor !== (form && form.id) || parts.known !== known) {
    parts.formFor = form && form.id;
    parts.known = known;
    clear(parts.form, form ? challengeForm(presets) : null);
  }
  const others = [...live.online.values()].filter((p) => p.id !== live.me);
  clear(parts.list, others.length
    ? el("ul", { class: "online-list", id: "online-list" }, others.slice(0, SHOWN_MAX).map(onlineRow))
    : el("p", { class: "muted" }, t("presence_nobody")),
  others.length > SHOWN_MAX ? el("p", { class: "muted" }, t("presence_more", { n: others.length - SHOWN_MAX })) : null);
  if (focused) document.getElementById(focused)?.focus();
}

function onlineRow(p) {
  const play = el("button", { type: "button", id: `challenge-${p.id}`, class: "small" },
    t("challenge_button", { name: p.name }));
  play.addEventListener("click", () => {
    form = { id: p.id, name: p.name };
    changed();
    document.getElementById("challenge-preset")?.focus();
  });
  const following = live.follows.has(p.id);
  const follow = el("button", { type: "button", id: `follow-${p.id}`, class: "small", "aria-pressed": following ? "true" : "false" },
    following ? t("unfollow", { name: p.name }) : t("follow", { name: p.name }));
  follow.addEventListener("click", async () => {
    try {
      await api(`/api/friends/follows/${encodeURIComponent(p.id)}`, { method: following ? "DELETE" : "PUT" });
      if (following) live.follows.delete(p.id);
      else live.follows.add(p.id);
      changed();
    } catch (e) {
      announce(t("challenge_failed", { why: e.message }), "error");
    }
  });
  return el("li", { class: "online-player", "data-player": p.id },
    el("span", { class: "online-name" }, p.name), p.guest ? [" ", guestTag()] : null,
    " — ", el("span", { class: "online-status" }, statusWords(p)), " ",
    watchLink(p), " ", play, " ", follow);
}

function gameWords(c) {
  return presetName(c.game.preset);
}

function challengeLists() {
  const all = [...live.challenges.values()].filter((c) => c.expires * 1000 > Date.now());
  const inbound = all.filter((c) => c.to.id === live.me);
  const outbound = all.filter((c) => c.from.id === live.me);
  const action = (c, verb, cls = "small") => {
    const words = { accept: () => t("challenge_accept"), decline: () => t("challenge_decline"),
      cancel: () => t("challenge_cancel") };
    const b = el("button", { type: "button", class: cls, id: `challenge-${verb}-${c.id}` }, words[verb]());
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        const r = await api(`/api/challenges/${encodeURIComponent(c.id)}/${verb}`, { method: "POST" });
        told(r.challenge);
        changed();
      } catch (e) {
        announce(t("challenge_failed", { why: e.message }), "error");
        await loadChallenges();
        changed();
      }
    });
    return b;
  };
  return [
    inbound.length ? el("div", { class: "challenges in" },
      el("h3", {}, t("challenges_in")),
      el("ul", {}, inbound.map((c) => el("li", {}, t("challenge_from", { name: c.from.name, preset: gameWords(c) }), " ",
        action(c, "accept", "small primary"), " ", action(c, "decline"))))) : null,
    outbound.length ? el("div", { class: "challenges out" },
      el("h3", {}, t("challenges_out")),
      el("ul", {}, outbound.map((c) => el("li", {}, t("challenge_to", { name: c.to.name, preset: gameWords(c) }), " ",
        action(c, "cancel"))))) : null,
  ];
}

function challengeForm(presets) {
  const known = presets() ?? [{ name: "classic" }];
  const preset = el("select", { id: "challenge-preset" }, known.map((p) =>
    el("option", { value: p.name, selected: p.name === choice.preset ? true : null }, p.title || presetName(p.name))));
  preset.addEventListener("change", () => { choice.preset = preset.value; });
  const level = el("select", { id: "challenge-level" },
    LEVELS.map((l) => el("option", { value: l, selected: l === choice.level ? true : null }, levelName(l))));
  level.addEventListener("change", () => { choice.level = level.value; });
  const send = el("button", { type: "submit", class: "primary", id: "challenge-send" }, t("challenge_send"));
  const close = el("button", { type: "button", id: "challenge-close" }, t("challenge_close"));
  close.addEventListener("click", () => {
    const back = form && document.getElementById(`challenge-${form.id}`);
    form = null;
    changed();
    back?.focus();
  });
  const f = el("form", { id: "challenge-form", class: "challenge-form", "aria-labelledby": "challenge-title" },
    el("h3", { id: "challenge-title" }, t("challenge_title", { name: form.name })),
    el("div", { class: "field" }, el("label", { for: "challenge-preset" }, t("preset")), preset),
    moveClockField("challenge-clock", choice),
    el("div", { class: "field" }, el("label", { for: "challenge-level" }, t("challenge_bots")), level),
    send, " ", close);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    send.disabled = true;
    const to = form;
    const players = known.find((p) => p.name === choice.preset)?.options?.players ?? 3;
    const body = { to: to.id, preset: choice.preset, clock: choice.clockOn ? choice.clock : null,
      bots: Array(Math.max(0, players - 2)).fill(choice.level) };
    try {
      const r = await api("/api/challenges", { method: "POST", body });
      live.challenges.set(r.challenge.id, r.challenge);
      form = null;
      announce(t("challenge_sent", { name: to.name }));
      changed();
    } catch (err) {
      announce(t("challenge_failed", { why: err.message }), "error");
      send.disabled = false;
    }
  });
  return f;
}

// ------------------------------------------------------------------ a player's page

/** What one may do with the player `id` (named `name`) on his page: challenge him (the
 * lobby's form, opened for him), follow him, block him; the buttons say which is on. */
export function playerActions(id, name) {
  const box = el("div", { class: "player-actions", id: "player-actions" });
  const toggle = (kind, on, words) => {
    const b = el("button", { type: "button", class: "small", id: `${kind}-toggle`, "aria-pressed": on ? "true" : "false" }, words);
    b.addEventListener("click", async () => {
      try {
        await api(`/api/friends/${kind}/${encodeURIComponent(id)}`, { method: on ? "DELETE" : "PUT" });
        await draw(await api("/api/friends"));
        document.getElementById(`${kind}-toggle`)?.focus();
      } catch (e) {
        announce(t("challenge_failed", { why: e.message }), "error");
      }
    });
    return b;
  };
  const draw = async (friends) => {
    const me = await currentPlayer();
    if (me && me.player && me.player.id === id) return; // one's own page
    const follows = friends.follows.some((f) => f.id === id);
    const blocks = friends.blocks.some((f) => f.id === id);
    clear(box,
      el("a", { class: "button", href: `/?challenge=${encodeURIComponent(id)}&name=${encodeURIComponent(name)}` },
        t("challenge_button", { name })), " ",
      toggle("follows", follows, follows ? t("unfollow", { name }) : t("follow", { name })), " ",
      toggle("blocks", blocks, blocks ? t("unblock", { name }) : t("block", { name })));
  };
  api("/api/friends").then(draw, () => null); // no session: nothing to offer
  return box;
}
