// The service worker (served as /sw.js by server/routes/web_app.py, which writes CACHE and FILES
// above this text: the release's cache name, from a hash of the files, and the files to
// keep).  What it does, and what it never does (docs/server.md "The app"):
// - keeps the pages' static files (FILES: scripts, style, icons, sounds) and the offline
//   page in a cache of this release, and serves them from there first; a new release is a
//   new /sw.js (another CACHE), which fetches them afresh and drops the old cache;
// - answers a page that cannot be loaded (no connection) with the offline page;
// - never keeps anything else: the pages themselves, the API, the table's WebSocket and
//   every answer that depends on the player pass through untouched.
/* global CACHE, FILES, OFFLINE */

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...FILES, OFFLINE].map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("thousand-") && n !== CACHE)
        .map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // the page from the network, always (it is never kept); without a connection, the
    // offline page
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)
      .then((page) => page || Response.error())));
    return;
  }
  if (url.pathname.startsWith("/static/") && !url.search) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request)
      .then((kept) => kept || fetch(request))));
  }
  // anything else (the API above all) is not touched
});

// A turn notice by Web Push (docs/server.md "Web Push"; the account page subscribes:
// push.js): the server sends {title, body, url, tag} when it is the player's move at a
// table he has no connection to; the notice is always shown (a push the player does not
// see is what browsers forbid), and replaces an older one of the same tag.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  event.waitUntil(self.registration.showNotification(data.title || "Тысяча", {
    body: data.body || "", icon: "/static/icons/icon-192.png", tag: data.tag || "thousand-turn",
    renotify: true, data: { url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/" },
  }));
});

// A turn notice's notification (turn_notice.js, or a push above) clicked: to the table's page, open or not.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/",
    self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then((windows) => {
      const open = windows.find((w) => w.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }));
});
