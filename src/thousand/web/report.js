// Reporting a player to the moderators (docs/server.md "Moderation"): a modal dialog
// with a reason of the fixed list and a short text, sent as POST /api/reports.  The
// table (from a seat's ⚑ and from the chat's lines) and the player's page (from his
// name) open it.

import { el, api, announce } from "./common.js";
import { t } from "./i18n.js";

/** The reasons, as the server's list (features/moderation.py REASONS). */
export const REASONS = ["abuse", "spam", "cheating", "name", "other"];
/** A reason in the reader's words. */
export function reasonText(reason) {
  const words = {
    abuse: () => t("report_reason_abuse"), spam: () => t("report_reason_spam"),
    cheating: () => t("report_reason_cheating"), name: () => t("report_reason_name"),
    other: () => t("report_reason_other"),
  };
  return Object.hasOwn(words, reason) ? words[reason]() : reason;
}
/** The longest text of a report, as the server's MAX_REPORT_TEXT. */
export const MAX_REPORT_TEXT = 300;

/** A refusal of a report (or of a profile's text) in the reader's words. */
export function reportError(e) {
  if (e.code === "filtered") return t("err_filtered");
  if (e.code === "self_report") return t("report_err_self");
  if (e.code === "rate_limited") return e.message; // worded by the server in his language
  return t("report_err_other", { why: e.message });
}

/** Open the dialog reporting `name`; `target` is the request's {table, seat} or
 * {player}; the focus goes back to `opener` when it closes (an element, or a function
 * that finds it then: a page that draws it afresh while the dialog is open). */
export function openReport(name, target, opener = null) {
  const error = el("p", { class: "error-line", role: "alert", id: "report-error", hidden: true });
  const form = el("form", { id: "report-form" },
    el("h2", { id: "report-title" }, t("report_title", { name })),
    el("div", { class: "field" },
      el("label", { for: "report-reason" }, t("report_reason")),
      el("select", { id: "report-reason", name: "reason" },
        REASONS.map((r) => el("option", { value: r }, reasonText(r))))),
    el("div", { class: "field" },
      el("label", { for: "report-text" }, t("report_text")),
      el("textarea", { id: "report-text", name: "text", rows: "3", maxlength: String(MAX_REPORT_TEXT),
        "aria-describedby": "report-text-hint" }),
      el("p", { id: "report-text-hint", class: "hint" }, t("report_text_hint", { n: MAX_REPORT_TEXT }))),
    el("div", { class: "field inline" },
      el("button", { type: "submit", id: "report-send" }, t("report_send")),
      el("button", { type: "button", id: "report-cancel", onclick: () => dialog.close() }, t("report_cancel"))),
    error);
  const dialog = el("dialog", { class: "report-dialog", "aria-labelledby": "report-title" }, form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    error.hidden = true;
    try {
      await api("/api/reports", { method: "POST", body: { ...target, reason: values.reason, text: values.text.trim() } });
      dialog.close();
      announce(t("report_sent", { name }));
    } catch (e) {
      error.textContent = reportError(e);
      error.hidden = false;
    }
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    const back = typeof opener === "function" ? opener() : opener;
    if (back && back.isConnected) back.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
}
