// The game clock on the pages (docs/server.md "Time controls"): the choice of a time
// control in the lobby's form and quick play (the categories the server names), and the
// time on a seat's clock in words.

import { el } from "./common.js";
import { t } from "./i18n.js";

/** The categories, fastest first, as POST /api/tables and /api/quickplay take them. */
export const CATEGORIES = ["fast", "normal", "unhurried"];
// each choice in words ("": none)
const WORDS = { "": () => t("tc_none"), fast: () => t("tc_fast"), normal: () => t("tc_normal"),
  unhurried: () => t("tc_unhurried") };

/**
 * A labelled select of the time controls, `value` chosen ("" for none when `none`);
 * `onChange(value)` on a change.
 */
export function timeControlField(id, value, onChange, { none = true } = {}) {
  const options = (none ? [""] : []).concat(CATEGORIES);
  const select = el("select", { id }, options.map((c) =>
    el("option", { value: c, selected: c === value ? true : null }, WORDS[c]())));
  select.addEventListener("change", () => onChange(select.value));
  return el("div", { class: "field inline" }, el("label", { for: id }, t("time_control_label")), select);
}

/**
 * The move clock's tick box and seconds, a choice made on purpose over the time control:
 * `form.clockOn` and `form.clock` follow them; ids `${id}-on` and `id`; `attrs` the
 * seconds' own (a tournament's may be less than 5 in the tests' servers).
 */
export function moveClockField(id, form, attrs = {}) {
  const on = el("input", { id: `${id}-on`, type: "checkbox", checked: form.clockOn ? true : null });
  const secs = el("input", { id, type: "number", min: "5", max: "3600", step: "5", value: String(form.clock),
    disabled: form.clockOn ? null : true, "aria-label": t("clock_seconds"), ...attrs });
  on.addEventListener("change", () => {
    form.clockOn = on.checked;
    secs.disabled = !on.checked;
  });
  secs.addEventListener("input", () => { form.clock = Number(secs.value) || 60; });
  return el("div", { class: "field inline" }, on, el("label", { for: `${id}-on` }, t("clock_label")), secs,
    el("span", { class: "muted" }, t("seconds")));
}

/** Seconds as a short span: whole minutes in minutes, else seconds. */
function span(seconds) {
  return seconds >= 60 && seconds % 60 === 0 ? t("tc_minutes", { n: seconds / 60 })
    : t("tc_seconds", { n: Math.round(seconds * 100) / 100 });
}

/**
 * A table's clock in short (the lobby's lists; `table` as GET /api/tables gives it): its
 * time control («10 мин + 5 с»), else its move clock («60 с на ход»), else none.
 */
export function clockLabel(table) {
  const control = table.time_control;
  if (control) return `${span(control.base)} + ${t("tc_seconds", { n: control.increment })}`;
  if (table.clock) return t("tc_move_clock", { n: Math.round(table.clock * 100) / 100 });
  return t("tc_none");
}

/** A game clock in words: its category's («быстрая: 5 мин + 3 с за ход»), else its base and
 * increment («15 мин + 5 с»); `control` as the API gives it (`base`, `increment`,
 * `category`). */
export function controlWords(control) {
  return control.category && WORDS[control.category] ? WORDS[control.category]() : clockLabel({ time_control: control });
}

/** Seconds on a game clock as m:ss (h:mm:ss past an hour). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * The clock's part of a request's body: the move clock when ticked (`seconds`: a choice
 * made on purpose, over the time control shown by default), else the time control
 * chosen, else none — null given, so that quick play adds no default.
 */
export function clockBody(control, perMove, seconds) {
  if (perMove) return { clock: seconds };
  return control ? { time_control: control, clock: null } : { clock: null };
}
