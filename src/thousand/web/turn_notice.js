// The turn notice (docs/server.md "The app"): when it becomes the player's move at the
// table, the tab says so (its title starts with «Ваш ход», its icon gets a mark), the turn
// sound plays (sound.js, muted when its switch is off) and, if the page is hidden and the
// player asked for them, the browser shows a notification.  When the move is no longer his,
// the title and icon are the table's again.

import { el, announce } from "./common.js";
import { t } from "./i18n.js";
import { playSound } from "./sound.js";
import { registerWorker } from "./app_worker.js";

const KEY = "thousand.notify";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";
let marked = false;
let title = null; // the table's own title, while the notice's is shown

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link) link.href = href;
}

/** Whether the player asked for notifications (and the browser still allows them). */
export function notifyOn() {
  let value = null;
  try {
    value = localStorage.getItem(KEY);
  } catch (e) {
    value = null;
  }
  return value === "on" && typeof Notification !== "undefined" && Notification.permission === "granted";
}

function notify(tableUrl) {
  const options = { body: t("notify_body"), icon: "/static/icons/icon-192.png", tag: "thousand-turn",
    renotify: true, data: { url: tableUrl } };
  // through the worker where there is one (Android allows no other way), else directly
  registerWorker().then((reg) => {
    if (reg && reg.showNotification) return reg.showNotification(t("notify_title"), options);
    const shown = new Notification(t("notify_title"), options);
    shown.onclick = () => { window.focus(); shown.close(); };
    return shown;
  }).catch(() => {});
}

/** Take the notification away: the player has come back, or the move is no longer his. */
function unnotify() {
  registerWorker()
    .then((reg) => (reg && reg.getNotifications ? reg.getNotifications({ tag: "thousand-turn" }) : []))
    .then((shown) => shown.forEach((n) => n.close()))
    .catch(() => {});
}

if (typeof document !== "undefined") {
  document.addEventListener("visibilitychange", () => { if (!document.hidden) unnotify(); });
}

/** Tell the player whose move it is: `mine` whether it is his now (called on every
 * drawing of the table; acts only when that changes, and again when the title was
 * written over). */
export function turnNotice(mine) {
  if (mine && !marked) {
    marked = true;
    title = document.title;
    document.title = `${t("turn_title")} · ${title}`;
    setIcon(TURN_ICON);
    playSound("turn");
    if (document.hidden && notifyOn()) notify(location.pathname);
  } else if (!mine && marked) {
    marked = false;
    document.title = title;
    setIcon(ICON);
    if (notifyOn()) unnotify();
  }
}

/** The table's switch for notifications: asks the browser's permission when turned on.
 * None where the browser has no notifications. */
export function notifySwitch(redraw) {
  if (typeof Notification === "undefined") return null;
  return el("button", {
    type: "button", id: "notify-button", "aria-pressed": notifyOn() ? "true" : "false",
    onclick: async () => {
      let on = !notifyOn();
      if (on && Notification.permission !== "granted") {
        on = (await Notification.requestPermission()) === "granted";
        if (!on) announce(t("notify_denied"), "error");
      }
      try {
        localStorage.setItem(KEY, on ? "on" : "off");
      } catch (e) {
        // private mode: nothing kept
      }
      redraw();
      document.getElementById("notify-button")?.focus();
    },
  }, el("span", { class: "sym", "aria-hidden": "true" }, "🔔"), t("notify_label"));
}
