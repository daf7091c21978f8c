// The lobby's «Быстрая игра» box (docs/server.md "Quick play"): a preset, a time control
// (the usual one unless changed) or a move clock if wanted, how long to wait for people before bots take the empty seats, and their level;
// POST /api/quickplay seats the player at the next table that needs one, or at a new one
// that waits, and the page goes there.

import { el, api, announce, levelName, presetName } from "./common.js";
import { t } from "./i18n.js";
import { timeControlField, clockBody, moveClockField } from "./time_control.js";

const NAME_KEY = "thousand.name";
const LEVELS = ["random", "beginner", "heuristic", "strong", "expert"];
// the waits offered before bots come (seconds; null: wait for people only), in words
const WAITS = [[null, () => t("bots_never")], [10, () => t("bots_10")], [30, () => t("bots_30")],
  [60, () => t("bots_60")], [120, () => t("bots_120")]];
const form = { preset: "classic", control: "normal", clockOn: false, clock: 60, wait: 30, level: "heuristic" };

/** The box; ``presets``: the rules catalogue's presets ([{name, title}]). */
export function quickPlayBox(presets) {
  const preset = el("select", { id: "quick-preset" }, (presets ?? []).map((p) =>
    el("option", { value: p.name, selected: p.name === form.preset ? true : null }, p.title || presetName(p.name))));
  preset.addEventListener("change", () => { form.preset = preset.value; });
  const wait = el("select", { id: "quick-wait" }, WAITS.map(([secs, words]) =>
    el("option", { value: secs === null ? "" : String(secs), selected: secs === form.wait ? true : null }, words())));
  const level = el("select", { id: "quick-level", disabled: form.wait === null ? true : null },
    LEVELS.map((l) => el("option", { value: l, selected: l === form.level ? true : null }, levelName(l))));
  wait.addEventListener("change", () => {
    form.wait = wait.value === "" ? null : Number.parseInt(wait.value, 10);
    level.disabled = form.wait === null;
  });
  level.addEventListener("change", () => { form.level = level.value; });
  const go = el("button", { type: "submit", class: "primary", id: "quick-button" }, t("quick_go"));
  const box = el("form", { id: "quick", class: "panel quick", autocomplete: "off" },
    el("h2", {}, t("quick_title")),
    el("p", { class: "explain" }, t("quick_lead")),
    el("div", { class: "field" }, el("label", { for: "quick-preset" }, t("preset")), preset),
    timeControlField("quick-time-control", form.control, (v) => { form.control = v; }),
    moveClockField("quick-clock", form),
    el("div", { class: "field" }, el("label", { for: "quick-wait" }, t("quick_wait")), wait),
    el("div", { class: "field" }, el("label", { for: "quick-level" }, t("quick_level")), level),
    go);
  box.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    const name = (document.getElementById("my-name")?.value ?? localStorage.getItem(NAME_KEY) ?? "").trim();
    const body = { preset: form.preset, ...clockBody(form.control, form.clockOn, form.clock),
      bots_after: form.wait, bot_level: form.level };
    if (name) body.name = name;
    try {
      const r = await api("/api/quickplay", { method: "POST", body });
      localStorage.setItem(`thousand.seat.${r.table}`, JSON.stringify({ seat: r.seat, token: r.token }));
      location.href = r.url || `/t/${encodeURIComponent(r.table)}`;
    } catch (err) {
      announce(t("quick_failed", { why: err.message }), "error");
      go.disabled = false;
    }
  });
  return box;
}
