// The friends page (/friends, docs/server.md "Presence, challenges and friends"): the players
// one follows, each with where he is now and his game to watch (live, from the lobby socket:
// presence.js), the players one blocks, and one's own settings: hide that one is online,
// take challenges from anyone or only from those one follows.

import { el, clear, api, mountHeader, announce, currentPlayer } from "./common.js";
import { t, onLangChange } from "./i18n.js";
import { watchPresence, presenceState, statusWords, watchLink } from "./presence.js";

const state = { follows: [], blocks: [], settings: null, error: null };
let parts = null;

async function load() {
  try {
    const [friends, settings] = await Promise.all([api("/api/friends"), api("/api/me/social")]);
    state.follows = friends.follows;
    state.blocks = friends.blocks;
    state.settings = settings;
  } catch (e) {
    state.error = e.status === 401 ? t("social_need_session") : e.message;
  }
  draw();
}

function untie(kind, f) {
  const b = el("button", { type: "button", class: "small", id: `${kind}-${f.id}` },
    kind === "follows" ? t("unfollow", { name: f.name }) : t("unblock", { name: f.name }));
  b.addEventListener("click", async () => {
    try {
      await api(`/api/friends/${kind}/${encodeURIComponent(f.id)}`, { method: "DELETE" });
      await load();
      document.querySelector(`#${kind}-list button, #${kind}-title`)?.focus();
    } catch (e) {
      announce(e.message, "error");
    }
  });
  return b;
}

function blockButton(f) {
  const b = el("button", { type: "button", class: "small", id: `block-${f.id}` }, t("block", { name: f.name }));
  b.addEventListener("click", async () => {
    try {
      await api(`/api/friends/blocks/${encodeURIComponent(f.id)}`, { method: "PUT" });
      await load();
    } catch (e) {
      announce(e.message, "error");
    }
  });
  return b;
}

function followRow(f) {
  const now = presenceState().online.get(f.id) ?? null;
  return el("li", { "data-player": f.id }, el("a", { href: `/p/${encodeURIComponent(f.id)}` }, f.name), " — ",
    el("span", { class: "online-status" }, statusWords(now)), " ", watchLink(now), " ", untie("follows", f), " ",
    blockButton(f));
}

function settingsForm() {
  const s = state.settings;
  const hidden = el("input", { id: "hide-presence", type: "checkbox", checked: s.hidden ? true : null });
  const strangers = el("input", { id: "strangers-ok", type: "checkbox", checked: s.strangers ? true : null });
  const save = async () => {
    try {
      state.settings = await api("/api/me/social", { method: "PUT",
        body: { hidden: hidden.checked, strangers: strangers.checked } });
      announce(t("social_saved"));
    } catch (e) {
      announce(e.message, "error");
    }
  };
  hidden.addEventListener("change", save);
  strangers.addEventListener("change", save);
  return el("section", { class: "panel", "aria-labelledby": "settings-title" },
    el("h2", { id: "settings-title" }, t("social_settings")),
    el("div", { class: "field inline" }, hidden, el("label", { for: "hide-presence" }, t("hide_presence"))),
    el("div", { class: "field inline" }, strangers, el("label", { for: "strangers-ok" }, t("strangers_ok"))));
}

function draw() {
  if (!parts) return;
  if (state.error) {
    clear(parts.body, el("p", { class: "error" }, state.error));
    return;
  }
  if (!state.settings) return;
  const active = document.activeElement?.id;
  clear(parts.body,
    el("section", { class: "panel", "aria-labelledby": "follows-title" },
      el("h2", { id: "follows-title", tabindex: "-1" }, t("follows_title")),
      state.follows.length ? el("ul", { id: "follows-list" }, state.follows.map(followRow))
        : el("p", { class: "muted" }, t("follows_none"))),
    el("section", { class: "panel", "aria-labelledby": "blocks-title" },
      el("h2", { id: "blocks-title", tabindex: "-1" }, t("blocks_title")),
      state.blocks.length ? el("ul", { id: "blocks-list" }, state.blocks.map((f) => el("li", {}, f.name, " ", untie("blocks", f))))
        : el("p", { class: "muted" }, t("blocks_none"))),
    settingsForm());
  if (active) document.getElementById(active)?.focus();
}

function layout() {
  const main = document.getElementById("main");
  parts = { body: el("div", { class: "friends" }) };
  clear(main, el("h1", {}, t("friends_title")), el("p", { class: "lead" }, t("friends_lead")), parts.body);
  draw();
}

async function start() {
  mountHeader("nav_friends");
  layout();
  await currentPlayer();
  await load();
  watchPresence(draw);
  onLangChange(layout);
}

start();
