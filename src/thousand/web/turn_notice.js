// The turn notice (docs/server.md "The app"): when it becomes the player's move at the
// table, the tab says so (its title starts with «Ваш ход», its icon gets a mark), the turn
// sound plays (sound.js, muted when its switch is off) and, if the page is hidden and the
// player asked for them, the browser shows a notification.  He asked for them with the
// table's switch, or by taking turn notices by push in this browser (push.js): the server
// pushes nothing while a page of the table is connected (server/features/push.py), so the
// hidden page is the one to tell him.  When the move is no longer his, the title and icon
// are the table's again, and the table's notification goes.

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

/** Seconds a notice waits for the service worker to be active (it installs on the first
 * visit) before it is shown by the page itself. */
const WORKER_WAIT = 10;

/** The active service worker's registration, or null: none, or not active in time. */
async function activeWorker() {
  const reg = await registerWorker();
  if (!reg || !reg.showNotification) return null;
  if (reg.active) return reg;
  const late = new Promise((resolve) => { setTimeout(() => resolve(null), WORKER_WAIT * 1000); });
  return Promise.race([navigator.serviceWorker.ready, late]);
}

/** Whether this browser takes the site's turn notices by push (the account page's
 * switch), with the browser's permission to show them. */
async function pushTaken() {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return false;
  const reg = await registerWorker();
  if (!reg || !reg.pushManager) return false;
  return Boolean(await reg.pushManager.getSubscription().catch(() => null));
}

async function notify(tableUrl) {
  const options = { body: t("notify_body"), icon: "/static/icons/icon-192.png", tag: "thousand-turn",
    renotify: true, data: { url: tableUrl } };
  // through the worker where there is one (Android allows no other way), else directly
  const reg = await activeWorker();
  if (!marked || !document.hidden) return; // played, or back, meanwhile
  if (reg) {
    await reg.showNotification(t("notify_title"), options);
    return;
  }
  const shown = new Notification(t("notify_title"), options);
  shown.onclick = () => { window.focus(); shown.close(); };
}

/** Take this table's notification away (a push's too): the player has come back, or the
 * move is no longer his.  Another table's stays. */
function unnotify() {
  registerWorker()
    .then((reg) => (reg && reg.getNotifications ? reg.getNotifications({ tag: "thousand-turn" }) : []))
    .then((shown) => shown.filter((n) => !n.data || n.data.url === location.pathname).forEach((n) => n.close()))
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
    if (document.hidden) {
      const table = location.pathname;
      (notifyOn() ? Promise.resolve(true) : pushTaken())
        .then((asked) => (asked ? notify(table) : null)).catch(() => {});
    }
  } else if (!mine && marked) {
    marked = false;
    document.title = title;
    setIcon(ICON);
    unnotify();
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
