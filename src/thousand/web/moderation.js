// The moderators' page (/moderation; docs/server.md "Moderation"): the open reports,
// oldest first, each with the table's chat kept with it, links to the game's replay and
// to the player's page, and the actions (dismiss, mute the chat for some hours, hide the
// name, close the account); under them the log of every action, newest first.  Everything
// is GET /api/moderation and POST /api/moderation/actions; the server refuses anyone but
// a moderator.

import { el, clear, api, mountHeader, announce, fmtDate } from "./common.js";
import { t, onLangChange } from "./i18n.js";
import { reasonText } from "./report.js";

const state = { data: null, error: null };

/** An action in the reader's words. */
function actionText(action) {
  const words = {
    dismiss: () => t("mod_action_dismiss"), mute: () => t("mod_action_mute"),
    hide: () => t("mod_action_hide"), close: () => t("mod_action_close"),
  };
  return Object.hasOwn(words, action) ? words[action]() : action;
}

async function load() {
  try {
    state.data = await api("/api/moderation");
    state.error = null;
  } catch (e) {
    state.error = e.message;
  }
  render();
}

/** Do `action` on report `r` (`extra`: the mute's hours), then show the page again. */
async function act(r, action, extra = {}) {
  try {
    await api("/api/moderation/actions", { method: "POST", body: { action, report: r.id, ...extra } });
    announce(t("mod_done", { action: actionText(action), name: r.player }));
  } catch (e) {
    announce(t("mod_error", { why: e.message }), "error");
  }
  await load();
  document.getElementById("mod-reports-title")?.focus();
}

function chatOf(r) {
  if (!r.chat.length) return el("p", { class: "muted" }, t("mod_no_chat"));
  // the reported player's lines stand out (the chat keeps the name each line was said under)
  return el("ol", { class: "chat-list", "aria-label": t("mod_chat") }, r.chat.map((c) =>
    el("li", { class: c.name === r.player ? "reported" : null },
      el("span", { class: "who" }, c.name), ": ", el("span", { class: "text" }, c.text))));
}

function actions(r) {
  const hours = el("input", { id: `mod-hours-${r.id}`, type: "number", min: "1", max: "720", value: "24", class: "hours" });
  return el("div", { class: "field inline", role: "group", "aria-label": t("mod_actions_label", { name: r.player }) },
    el("button", { type: "button", class: "mod-dismiss", onclick: () => act(r, "dismiss") }, t("mod_dismiss")),
    el("label", { for: hours.id }, t("mod_hours")), hours,
    el("button", { type: "button", class: "mod-mute", onclick: () => act(r, "mute", { hours: Number(hours.value) }) }, t("mod_mute")),
    el("button", { type: "button", class: "mod-hide", onclick: () => act(r, "hide") }, t("mod_hide")),
    el("button", { type: "button", class: "mod-close", onclick: () => {
      if (window.confirm(t("mod_close_confirm", { name: r.player }))) act(r, "close");
    } }, t("mod_close")));
}

function report(r) {
  const title = `mod-report-${r.id}-title`;
  return el("article", { class: "panel mod-report", "data-report": String(r.id), "data-player": r.player_id, "aria-labelledby": title },
    el("h3", { id: title }, t("mod_report_head", { player: r.player, reporter: r.reporter ?? "—" })),
    el("p", {}, t("mod_report_when", { date: fmtDate(r.created), reason: reasonText(r.reason) })),
    r.text ? el("blockquote", { class: "about" }, r.text) : null,
    el("p", {},
      el("a", { href: `/p/${encodeURIComponent(r.player_id)}` }, t("mod_player_page")),
      r.table ? [" · ", el("a", { href: `/replay/${encodeURIComponent(r.table)}` }, t("mod_replay"))] : null),
    el("h4", {}, t("mod_chat")), chatOf(r),
    actions(r));
}

function logTable(log) {
  if (!log.length) return el("p", { class: "muted" }, t("mod_no_log"));
  return el("table", { class: "games", id: "mod-log" },
    el("thead", {}, el("tr", {},
      [t("mod_col_at"), t("mod_col_moderator"), t("mod_col_action"), t("mod_col_player"), t("mod_col_detail")]
        .map((words) => el("th", { scope: "col" }, words)))),
    el("tbody", {}, log.map((x) => el("tr", { "data-action": x.action },
      el("td", {}, fmtDate(x.at)), el("td", {}, x.moderator),
      el("td", {}, actionText(x.action)),
      el("td", {}, x.player_id ? el("a", { href: `/p/${encodeURIComponent(x.player_id)}` }, x.player) : x.player),
      el("td", {}, x.detail)))));
}

function render() {
  const main = document.getElementById("main");
  const d = state.data;
  document.title = `${t("mod_title")} — ${t("app_name")}`;
  clear(main, el("h1", {}, t("mod_title")),
    !d ? el("p", state.error ? { class: "error-line", role: "alert" } : { class: "muted" },
      state.error ? t("mod_error", { why: state.error }) : t("loading"))
      : [
        el("h2", { id: "mod-reports-title", tabindex: "-1" }, t("mod_reports")),
        d.reports.length ? el("div", { id: "mod-reports" }, d.reports.map(report))
          : el("p", { class: "muted", id: "mod-no-reports" }, t("mod_no_reports")),
        el("h2", {}, t("mod_log")), logTable(d.log),
      ]);
}

mountHeader(null);
render();
load();
onLangChange(render);
