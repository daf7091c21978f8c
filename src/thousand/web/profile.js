// What a player tells of himself (docs/server.md "A player's page"): his country, shown
// as its flag and its name in the reader's language (the browser's Intl.DisplayNames),
// and «о себе», plain text.  The account page edits them; the player's page shows them.

import { el, api, announce } from "./common.js";
import { t, getLang } from "./i18n.js";
import { reportError } from "./report.js";

/** The longest «о себе», as the server's MAX_ABOUT. */
export const MAX_ABOUT = 300;

/** A country's flag: its code's two regional indicator letters. */
export function flag(code) {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** A country's name in the reader's language (its code when the browser has none). */
export function countryName(code) {
  try {
    return new Intl.DisplayNames([getLang()], { type: "region" }).of(code) || code;
  } catch (e) {
    return code;
  }
}

/** The country as the pages show it: its flag (not read aloud) and its name. */
export function countryLabel(code) {
  return el("span", { class: "country" }, el("span", { "aria-hidden": "true" }, flag(code)), " ", countryName(code));
}

/** The account's form of its country and «о себе» (`profile`: GET /api/account/profile),
 * saved with POST /api/account/profile. */
export function profileForm(profile) {
  const collator = new Intl.Collator(getLang());
  const countries = [...profile.countries].sort((a, b) => collator.compare(countryName(a), countryName(b)));
  const error = el("p", { class: "error-line", role: "alert", id: "profile-error", hidden: true });
  const form = el("form", { class: "panel", id: "profile", "aria-labelledby": "profile-title" },
    el("h2", { id: "profile-title" }, t("profile_title")),
    el("div", { class: "field" },
      el("label", { for: "profile-country" }, t("profile_country")),
      el("select", { id: "profile-country", name: "country" },
        el("option", { value: "" }, t("profile_no_country")),
        countries.map((c) => el("option", { value: c, selected: c === profile.country }, `${flag(c)} ${countryName(c)}`)))),
    el("div", { class: "field" },
      el("label", { for: "profile-about" }, t("profile_about")),
      el("textarea", { id: "profile-about", name: "about", rows: "4", maxlength: String(MAX_ABOUT),
        "aria-describedby": "profile-about-hint" }, profile.about ?? ""),
      el("p", { id: "profile-about-hint", class: "hint" }, t("profile_about_hint", { n: MAX_ABOUT }))),
    el("button", { type: "submit", id: "profile-save" }, t("profile_save")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    error.hidden = true;
    try {
      await api("/api/account/profile", { method: "POST", body: { country: values.country, about: values.about } });
      announce(t("profile_saved"));
    } catch (e) {
      error.textContent = e.code === "bad_profile" ? t("profile_error", { why: e.message }) : reportError(e);
      error.hidden = false;
    }
  });
  return form;
}
