// The pages' own words, Russian (the default) and English; the choice is remembered in
// localStorage.  The words themselves are thousand.words.pages (page_words.js is written
// from it); texts about the game's events and illegal moves come from the server's
// catalogue (/api/texts, thousand.words.catalogue), the same words the terminal prints.

import { STRINGS } from "./page_words.js";

export { STRINGS };

const LANG_KEY = "thousand.lang";
// The same choice as a cookie, for the pages the server writes itself (its error pages,
// thousand.server.pages.LANG_COOKIE).
const LANG_COOKIE = "thousand_lang";
const listeners = [];
let pageLang = null; // when localStorage cannot keep it

function remember(value) {
  pageLang = value;
  try {
    localStorage.setItem(LANG_KEY, value);
  } catch (e) {
    // private mode: the choice lasts for this page only
  }
  try {
    document.cookie = `${LANG_COOKIE}=${value}; path=/; max-age=31536000; SameSite=Lax`;
  } catch (e) {
    // no cookies: the server's own pages follow the browser's languages
  }
}

// ?lang=ru|en (a link of an error page) chooses the language and it is remembered; a
// choice kept from before the cookie existed is given to the cookie too.
// (Not in Node, where the tests read this module: there is no page there.)
if (typeof location !== "undefined") {
  const asked = new URLSearchParams(location.search).get("lang");
  let kept = null;
  try {
    kept = localStorage.getItem(LANG_KEY);
  } catch (e) {
    kept = null;
  }
  if (asked === "ru" || asked === "en") remember(asked);
  else if (kept === "ru" || kept === "en") remember(kept);
}

export function getLang() {
  let stored = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch (e) {
    stored = pageLang;
  }
  if (stored === null) {
    const cookies = typeof document !== "undefined" ? document.cookie || "" : "";
    const m = /(?:^|;\s*)thousand_lang=(ru|en)\b/.exec(cookies);
    stored = m ? m[1] : null;
  }
  return stored === "en" ? "en" : "ru";
}

export function setLang(lang) {
  const value = lang === "en" ? "en" : "ru";
  remember(value);
  document.documentElement.lang = value;
  for (const f of listeners) f(value);
}

export function onLangChange(f) {
  listeners.push(f);
}

/** The text `key` in the current language with {name} marks filled from `params`. */
export function t(key, params = {}) {
  const lang = getLang();
  const text = STRINGS[lang][key] ?? STRINGS.ru[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? "" : String(params[k])));
}

/** Fill every element that has a data-i18n attribute with the text it names. */
export function applyStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}
