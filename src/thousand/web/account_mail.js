// E-mail and a forgotten password on the player's page (/account; docs/server.md "E-mail
// and password recovery"): «Забыли пароль?» under the sign-in form, the account's address
// and its confirmation, and the letters' links (/account#verify=… confirms an address,
// /account#reset=… asks for a new password twice).  The link's secret is in the fragment,
// which never reaches a server's log, and leaves the address bar as soon as it is read.
// When the server sends no mail, the page says that recovery is off.

import { el, clear, api } from "./common.js";
import { t, getLang } from "./i18n.js";
import { act, field, form, password, why } from "./account_forms.js";

const state = {
  enabled: null, // whether the server sends mail (GET /api/account/recovery)
  mine: null, // the account's {email, pending}
  link: null, // the letter's link this page was opened with: {kind, token}
  notice: null, // what came of it: {text, error}
};

/** The API's path with the page's language: the letters and refusals are worded in it. */
const worded = (path) => `${path}?lang=${getLang()}`;

/** Read (and take out of the address bar) a letter's link: #verify=… or #reset=…. */
export function openLink() {
  const found = /^#(verify|reset)=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
  if (!found) return;
  state.link = { kind: found[1], token: found[2] };
  history.replaceState(null, "", window.location.pathname + window.location.search);
}

/** Whether mail is on; the account's address; an opened confirmation link used. */
export async function loadMail(me) {
  const answer = await api("/api/account/recovery").catch(() => ({ enabled: false }));
  state.enabled = Boolean(answer.enabled);
  if (state.link?.kind === "verify") {
    const token = state.link.token;
    state.link = null;
    try {
      const done = await api("/api/account/email/verify", { method: "POST", body: { token } });
      state.notice = { text: t("account_email_verified", { email: done.email }), error: false };
    } catch (e) {
      state.notice = { text: why(e), error: true };
    }
  }
  state.mine = state.enabled && me?.player?.kind === "account"
    ? await api("/api/account/email").catch(() => null) : null;
}

/** What the opened link came to, at the top of the page. */
function notice() {
  if (!state.notice) return null;
  return el("p", { id: "mail-notice", class: state.notice.error ? "error-line" : "notice",
    role: state.notice.error ? "alert" : "status" }, state.notice.text);
}

/** The new password of a forgotten password's link, twice; or null when none is open. */
function resetForm(reload) {
  if (state.link?.kind !== "reset") return null;
  return form("reset", t("account_reset_title"), [
    password("reset-password", t("account_new_password"), "new-password"),
    password("reset-again", t("account_reset_again"), "new-password"),
  ], t("account_reset_save"), async (v) => {
    if (v["reset-password"] !== v["reset-again"]) throw { code: "mismatch" };
    await api(worded("/api/account/reset"), { method: "POST",
      body: { token: state.link.token, password: v["reset-password"] } });
    state.link = null;
    state.notice = { text: t("account_reset_done"), error: false };
    await reload(t("account_reset_done"));
  });
}

/** The top of the page: the opened link's form or its outcome. */
export function linkView(reload) {
  return [notice(), resetForm(reload)];
}

/** «Забыли пароль?» under the sign-in form (or why it cannot be). */
export function forgotPanel() {
  if (state.enabled === null) return null;
  if (!state.enabled) return el("p", { id: "recovery-off" }, t("account_recovery_off"));
  const sent = el("p", { id: "forgot-sent", class: "notice", role: "status" });
  const node = form("forgot", t("account_forgot_title"), [
    el("p", {}, t("account_forgot_lead")),
    field("forgot-email", t("account_email"), { type: "email", autocomplete: "email",
      maxlength: 254 }),
  ], t("account_forgot_send"), async (v) => {
    clear(sent);
    await api(worded("/api/account/forgot"), { method: "POST",
      body: { email: v["forgot-email"] } });
    clear(sent, t("account_forgot_sent"));
  });
  node.append(sent);
  return node;
}

/** The account's address: shown, changed (a link confirms it), removed. */
export function emailPanel(reload) {
  if (state.enabled === null) return null;
  if (!state.enabled) {
    return el("section", { class: "panel", id: "email", "aria-labelledby": "email-title" },
      el("h2", { id: "email-title" }, t("account_email_title")),
      el("p", {}, t("account_email_off")));
  }
  const mine = state.mine ?? {};
  return form("email", t("account_email_title"), [
    el("p", {}, t("account_email_lead")),
    el("p", { id: "email-current" }, mine.email
      ? t("account_email_current", { email: mine.email }) : t("account_email_none")),
    mine.pending ? el("p", { id: "email-pending" },
      t("account_email_pending", { email: mine.pending })) : null,
    field("email-address", t("account_email"), { type: "email", autocomplete: "email",
      maxlength: 254 }),
    mine.email ? el("button", { type: "button", id: "email-remove", onclick: act(async () => {
      await api("/api/account/email", { method: "DELETE" });
      await reload(t("account_email_removed"));
    }) }, t("account_email_remove")) : null,
  ], t("account_email_save"), async (v) => {
    const email = v["email-address"];
    await api(worded("/api/account/email"), { method: "POST", body: { email } });
    await reload(t("account_email_sent", { email }));
  });
}
