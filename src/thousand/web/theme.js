// The page's colours, chosen before it is first drawn: this script is the first in every
// page's <head> (a file, not inline: the CSP allows no inline script) and runs before the
// stylesheet applies.  The player's choice is "light", "dark" or "system" (the default:
// the device's prefers-color-scheme, followed live); it is kept in localStorage, and
// <html data-theme> always holds the colours it comes to ("light" or "dark"), which
// style.css reads.  The header's switch (common.js) calls window.thousandTheme.choose.
(function () {
  var KEY = "thousand.theme";
  var CHOICES = ["system", "light", "dark"];
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var kept = null; // when localStorage cannot keep it

  function chosen() {
    var value = kept;
    try {
      value = localStorage.getItem(KEY) || kept;
    } catch (e) {
      value = kept;
    }
    return CHOICES.indexOf(value) > 0 ? value : "system";
  }

  function apply() {
    var choice = chosen();
    var dark = choice === "dark" || (choice === "system" && !!system && system.matches);
    document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
  }

  function choose(value) {
    kept = CHOICES.indexOf(value) >= 0 ? value : "system";
    try {
      if (kept === "system") localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, kept);
    } catch (e) {
      // private mode: the choice lasts for this page only
    }
    apply();
  }

  apply();
  if (system && system.addEventListener) system.addEventListener("change", apply);
  window.addEventListener("storage", function (e) { if (e.key === KEY) apply(); }); // another tab
  window.thousandTheme = { CHOICES: CHOICES, chosen: chosen, choose: choose };
})();
