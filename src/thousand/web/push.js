// Turn notices by Web Push on the player's page (/account; docs/server.md "Web Push"): an
// account turns them on for this browser, which subscribes at its push service with the
// site's VAPID key (GET /api/push/key) and gives the server the subscription (POST
// /api/push/subscription); off, the server forgets it and the browser unsubscribes.  The
// notice itself is shown by the service worker (sw.js, its "push" event).  Nothing is
// offered when the server sends no push (no key), to a guest, or by a browser without
// push.

import { el, api, announce } from "./common.js";
import { t, getLang } from "./i18n.js";
import { registerWorker } from "./app_worker.js";

const state = { key: null, on: false };

/** Whether this browser can take push messages at all. */
function supported() {
  return typeof window !== "undefined" && "PushManager" in window
    && typeof Notification !== "undefined" && Boolean(navigator.serviceWorker);
}

/** The VAPID public key (base64url) as the Push API takes it. */
function keyBytes(key) {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function subscription() {
  const reg = await registerWorker();
  return reg && reg.pushManager ? reg.pushManager.getSubscription().catch(() => null) : null;
}

/** Whether the server sends push (and the player is an account), and whether this
 * browser is subscribed. */
export async function loadPush(me) {
  state.key = null;
  if (me?.player?.kind !== "account" || !supported()) return;
  const answer = await api("/api/push/key").catch(() => ({ enabled: false }));
  if (!answer.enabled) return;
  state.key = answer.key;
  state.on = Boolean(await subscription());
}

async function turnOn() {
  if (Notification.permission !== "granted"
      && (await Notification.requestPermission()) !== "granted") {
    throw new Error(t("notify_denied"));
  }
  const reg = await registerWorker();
  if (!reg) throw new Error(t("err_network"));
  await navigator.serviceWorker.ready;
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true,
    applicationServerKey: keyBytes(state.key) });
  // the notices are worded in this page's language
  await api(`/api/push/subscription?lang=${getLang()}`, { method: "POST", body: sub.toJSON() });
}

async function turnOff() {
  const sub = await subscription();
  if (!sub) return;
  await api("/api/push/subscription", { method: "DELETE", body: { endpoint: sub.endpoint } });
  await sub.unsubscribe();
}

/** The page's panel: the switch for this browser; null when push is not offered. */
export function pushPanel(redraw) {
  if (!state.key) return null;
  return el("section", { class: "panel", id: "push", "aria-labelledby": "push-title" },
    el("h2", { id: "push-title" }, t("push_title")),
    el("p", {}, t("push_lead")),
    el("button", { type: "button", id: "push-button", "aria-pressed": state.on ? "true" : "false",
      onclick: async () => {
        try {
          if (state.on) await turnOff(); else await turnOn();
          state.on = !state.on;
          announce(state.on ? t("push_on") : t("push_off"));
        } catch (e) {
          announce(t("push_failed", { why: e.message || String(e) }), "error");
        }
        redraw();
        document.getElementById("push-button")?.focus();
      } },
    el("span", { class: "sym", "aria-hidden": "true" }, "🔔"), t("push_label")));
}
