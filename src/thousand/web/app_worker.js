// The service worker's registration (/sw.js, written by server/routes/web_app.py from sw.js):
// every page asks for it once; the browser installs it, or a new one after a release.
// Where there is none (an old browser, plain http from afar, Node in the tests) nothing
// happens and the site works as before, online.

let registration = null;

/** Register /sw.js for the whole site, once per page; the registration, or null. */
export function registerWorker() {
  if (!registration) {
    const worker = typeof navigator !== "undefined" ? navigator.serviceWorker : undefined;
    registration = worker
      ? worker.register("/sw.js", { scope: "/" }).catch(() => null)
      : Promise.resolve(null);
  }
  return registration;
}
