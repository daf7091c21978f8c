// The forms of the player's page (/account, account.js and account_mail.js): a labelled
// field, a form that shows its own refusal, a button whose refusal is announced, and a
// refusal in the player's words (the API's code picks the text).

import { el, clear, announce } from "./common.js";
import { t } from "./i18n.js";

/** A refusal in the player's words: the API's code picks the text. */
export function why(e) {
  const known = {
    name_taken: () => t("account_err_name_taken"),
    bad_credentials: () => t("account_err_bad_credentials"),
    wrong_password: () => t("account_err_wrong_password"),
    bad_password: () => t("account_err_bad_password"),
    csrf: () => t("account_err_csrf"),
    bad_link: () => t("account_err_bad_link"),
    bad_email: () => t("account_err_bad_email"),
    email_taken: () => t("account_err_email_taken"),
    mail_off: () => t("account_err_mail_off"),
    mail_failed: () => t("account_err_mail_failed"),
    mismatch: () => t("account_err_mismatch"),
    rate_limited: () => e.message, // worded by the server in the page's language
  };
  if (Object.hasOwn(known, e.code)) return known[e.code]();
  if (e.code === "bad_name") return t("account_err_bad_name", { why: e.message });
  return t("account_err_other", { why: e.message });
}

export function field(id, label, attrs = {}) {
  return el("div", { class: "field" },
    el("label", { for: id }, label),
    el("input", { id, name: id, required: true, ...attrs }));
}

/** A form whose submit calls `action(values)`; its error, if any, shown inside it. */
export function form(id, title, fields, button, action) {
  const error = el("p", { class: "error-line", role: "alert", id: `${id}-error`, hidden: true });
  const node = el("form", { class: "panel", id, "aria-labelledby": `${id}-title` },
    el("h2", { id: `${id}-title` }, title), ...fields,
    el("button", { type: "submit" }, button), error);
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries(new FormData(node).entries());
    error.hidden = true;
    try {
      await action(values);
    } catch (e) {
      clear(error, why(e));
      error.hidden = false;
    }
  });
  return node;
}

/** A button's action; a refusal goes to the page's live region. */
export function act(action) {
  return async () => {
    try {
      await action();
    } catch (e) {
      announce(why(e), "error");
    }
  };
}

/** A password field with its rule under it, inside its own form (one hint between the
 * forms floated apart from all of them). */
export function password(id, label, autocomplete) {
  const box = field(id, label, { type: "password", autocomplete, minlength: 8, maxlength: 128,
    "aria-describedby": `${id}-hint` });
  box.append(el("p", { id: `${id}-hint`, class: "hint" }, t("account_password_hint")));
  return box;
}
