// The player's own page (/account): a guest takes a name with a password (sign up) or
// signs in; an account signs out (here or everywhere), changes its password or is deleted
// (docs/server.md "Players"); its e-mail and a forgotten password are account_mail.js'.
// The server does the work; this page only asks and shows.

import { el, clear, api, mountHeader, currentPlayer, refreshHeaderPlayer, announce, presetName, shownName, loadTexts, forgetSeats } from "./common.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { act, field, form, password } from "./account_forms.js";
import { emailPanel, forgotPanel, linkView, loadMail, openLink } from "./account_mail.js";
import { profileForm } from "./profile.js";
import { loadPush, pushPanel } from "./push.js";

// profile: the account's country and «о себе», and whether it is a moderator
const state = { me: null, profile: null, error: null };

/** The account's profile (GET /api/account/profile), or null for a guest. */
async function loadProfile() {
  state.profile = state.me?.player.kind === "account"
    ? await api("/api/account/profile").catch(() => null) : null;
}

async function reload(message) {
  state.me = await currentPlayer(true);
  await loadProfile();
  await Promise.all([refreshHeaderPlayer(), loadMail(state.me), loadPush(state.me)]);
  render();
  if (message) announce(message);
}

/** The player's own page (/p/<id>): his ratings, his games, as others see them. */
function playerPageLink(player) {
  return el("p", {}, el("a", { id: "player-page-link", href: `/p/${encodeURIComponent(player.id)}` },
    t("account_player_page")));
}

/** A live table by its rules, who else sits there and its state («Классика: с Борей и
 * Вовой — идёт игра»), not by its id. */
function tableLine(x) {
  // a guest's name marked as everywhere (in words: the line is one sentence of text)
  const named = (name, seat) => (x.guests?.[seat] ? `${shownName(name)} (${t("guest_tag")})` : shownName(name));
  const others = (x.names ?? []).map(named).filter((_, seat) => seat !== x.seat).join(", ");
  const status = { waiting: t("status_waiting"), playing: t("status_playing") }[x.status] ?? x.status;
  return t("account_table", { preset: presetName(x.preset), others: others || "—", status, seat: x.seat + 1 });
}

function guestView(player) {
  return [
    el("p", {}, t("account_guest_lead")),
    player.name ? playerPageLink(player) : null,
    form("guest", t("account_guest_name_title"), [
      field("guest-name", t("account_name"), { type: "text", autocomplete: "nickname", maxlength: 32,
        value: player.name ?? "" }),
    ], t("account_guest_name_save"), async (v) => {
      await api("/api/me/name", { method: "POST", body: { name: v["guest-name"] } });
      await reload(t("account_guest_name_saved"));
    }),
    form("signup", t("account_signup_title"), [
      field("signup-name", t("account_name"), { type: "text", autocomplete: "username", maxlength: 32 }),
      password("signup-password", t("account_password"), "new-password"),
    ], t("account_signup"), async (v) => {
      await api("/api/account/signup", { method: "POST", body: { name: v["signup-name"], password: v["signup-password"] } });
      await reload();
    }),
    form("signin", t("account_signin_title"), [
      field("signin-name", t("account_name"), { type: "text", autocomplete: "username", maxlength: 32 }),
      password("signin-password", t("account_password"), "current-password"),
    ], t("account_signin"), async (v) => {
      await api("/api/account/signin", { method: "POST", body: { name: v["signin-name"], password: v["signin-password"] } });
      await reload();
    }),
    forgotPanel(),
  ];
}

function accountView(player, tables) {
  return [
    el("p", { id: "signed-in" }, t("account_signed_in", { name: player.name })),
    playerPageLink(player),
    el("p", {}, el("a", { id: "exercises-link", href: "/exercises" }, t("ex_link"))),
    state.profile?.moderator ? el("p", {}, el("a", { id: "moderation-link", href: "/moderation" }, t("account_moderation"))) : null,
    tables.length ? el("section", { class: "panel", "aria-labelledby": "tables-title" },
      el("h2", { id: "tables-title" }, t("account_your_tables")),
      el("ul", {}, tables.map((x) => el("li", {},
        el("a", { href: x.url }, tableLine(x)))))) : null,
    el("div", { class: "field inline" },
      el("button", { type: "button", id: "signout", onclick: act(async () => {
        await api("/api/account/signout", { method: "POST" });
        forgetSeats();
        await reload(t("account_signed_out"));
      }) }, t("account_signout")),
      el("button", { type: "button", id: "signout-everywhere", onclick: act(async () => {
        await api("/api/account/signout-everywhere", { method: "POST" });
        forgetSeats();
        await reload(t("account_signed_out_everywhere"));
      }) }, t("account_signout_everywhere"))),
    emailPanel(reload),
    pushPanel(render),
    state.profile ? profileForm(state.profile) : null,
    form("password", t("account_password_title"), [
      password("old-password", t("account_old_password"), "current-password"),
      password("new-password", t("account_new_password"), "new-password"),
    ], t("account_change_password"), async (v) => {
      await api("/api/account/password", { method: "POST", body: { old: v["old-password"], new: v["new-password"] } });
      await reload(t("account_password_changed"));
    }),
    form("delete", t("account_delete_title"), [
      el("p", {}, t("account_delete_lead")),
      password("delete-password", t("account_password"), "current-password"),
    ], t("account_delete"), async (v) => {
      if (!window.confirm(t("account_delete_confirm", { name: player.name }))) return;
      await api("/api/account", { method: "DELETE", body: { password: v["delete-password"] } });
      await reload(t("account_deleted"));
    }),
  ];
}

function render() {
  const main = document.getElementById("main");
  const me = state.me;
  clear(main, el("h1", {}, t("account_title")), linkView(reload),
    !me ? el("p", {}, t("loading"))
      : me.player.kind === "account" ? accountView(me.player, me.tables || []) : guestView(me.player));
}

mountHeader("account");
openLink(); // a letter's link (account_mail.js)
render();
Promise.all([currentPlayer(), loadTexts(getLang())]).then(async ([me]) => { // the presets' names
  state.me = me;
  await loadMail(me);
  await loadPush(me);
  await loadProfile();
  render();
});
onLangChange(render);
window.addEventListener("hashchange", async () => { // a letter's link opened on this page
  openLink();
  await loadMail(state.me);
  render();
});
