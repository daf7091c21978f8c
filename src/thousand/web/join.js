// Taking a seat at a table (the table page's join panel): a form with the free seats, and
// a plain word for each way it can go wrong, with what one can do next — another free
// seat, watching, the lobby.  An invite link names a seat (?seat=N, the seat's index):
// a full table, a seat that is not there, a bot's seat or a taken one is said so, never
// silently turned into watching; a seat taken by somebody else while one types his name
// is said so too, and the form offers the seats still free.

import { el, clear, api, currentPlayer, nameInput as nameField, NAME_KEY } from "./common.js";
import { t } from "./i18n.js";


/** The seat an invite link asks for: its index, "bad" for something that is not one,
 * or null when the link names none. */
function wantedSeat() {
  const raw = new URLSearchParams(location.search).get("seat");
  if (raw === null || raw === "") return null;
  return /^\d{1,3}$/.test(raw) ? Number.parseInt(raw, 10) : "bad";
}

/** What to say about the seat asked for (null: nothing is wrong). */
function wantedProblem(wanted, seats, over) {
  if (wanted === null) return null;
  const free = seats.filter((x) => x.kind !== "bot" && !x.taken);
  if (over) return t("join_game_over");
  if (wanted === "bad" || wanted >= seats.length) {
    return wanted === "bad" ? t("join_no_such_seat", { n: "?" }) : t("join_no_such_seat", { n: wanted + 1 });
  }
  const seat = seats.find((x) => x.seat === wanted);
  if (!seat) return t("join_no_such_seat", { n: wanted + 1 });
  if (seat.kind === "bot") return t("join_bot_seat", { n: wanted + 1 });
  if (seat.taken) return free.length ? t("join_seat_held", { n: wanted + 1 }) : t("join_full");
  return null;
}

/**
 * The join panel of one table.  `invite` is the secret of an unlisted table's link (its
 * seats need it; null for a listed table).  `container()` is the element to fill; `onJoined(seat,
 * token)` runs once a seat is ours (the page keeps the token and connects again);
 * `refresh()` fetches the seats anew (after a refusal).  `render({seats, seat, over})`
 * draws it for the table as it is now.
 */
export function joinPanel({ tableId, invite = null, container, onJoined, refresh }) {
  let lost = null; // the seat somebody took while we filled the form
  let dismissed = false; // "watch the game": the panel steps aside
  let last = { seats: [], seat: null, over: false };
  let shown = []; // the free seats the form last offered
  let me = null; // the browser's player, whose name fills the form
  currentPlayer().then((found) => {
    me = found;
    if (me && me.player && me.player.name) render(last);
  });

  function watch() {
    dismissed = true;
    lost = null;
    history.replaceState(null, "", `/t/${encodeURIComponent(tableId)}`);
    render(last);
  }

  async function take(seat, name, box) {
    if (!name) {
      clear(box, t("name_required"));
      box.hidden = false;
      document.getElementById("join-name")?.focus();
      return;
    }
    localStorage.setItem(NAME_KEY, name);
    try {
      const r = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`,
        { method: "POST", body: invite ? { name, invite } : { name } });
      lost = null;
      history.replaceState(null, "", `/t/${encodeURIComponent(tableId)}`);
      onJoined(seat, r.token);
    } catch (err) {
      if (err.code === "seat_taken" || err.code === "no_such_seat" || err.code === "game_over") {
        lost = { seat, code: err.code };
      } else {
        lost = { seat, code: "other", why: err.message };
      }
      await refresh();
      render(last);
      document.querySelector("#join .join-problem")?.focus();
    }
  }

  function render({ seats = [], seat = null, over = false } = {}) {
    last = { seats, seat, over };
    const root = container();
    if (!root) return;
    const typed = root.querySelector("#join-name");
    const name = typed ? typed.value : null; // what is being typed survives a new drawing
    const wasFocused = typed !== null && document.activeElement === typed;
    clear(root);
    if (seat !== null || dismissed) return; // seated, or chose to watch
    if (!seats.length) return; // the seats are not known yet
    const free = seats.filter((x) => x.kind !== "bot" && !x.taken);
    // a seat the form offered went to somebody else while the name was being typed
    const wantedNow = wantedSeat();
    const gone = shown.filter((n) => !free.some((x) => x.seat === n));
    if (!lost && gone.length && (name || gone.includes(wantedNow))) {
      lost = { seat: gone.includes(wantedNow) ? wantedNow : gone[0], code: "seat_taken" };
    }
    shown = over ? [] : free.map((x) => x.seat);
    let problem = null;
    if (lost) {
      problem = {
        seat_taken: () => t("join_seat_gone", { n: lost.seat + 1 }),
        no_such_seat: () => t("join_no_such_seat", { n: lost.seat + 1 }),
        game_over: () => t("join_game_over"),
      }[lost.code]?.() ?? t("err_unknown", { code: lost.why ?? lost.code });
    } else {
      problem = wantedProblem(wantedSeat(), seats, over);
    }
    if (!problem && (!free.length || over)) return; // a spectator by choice: nothing to say
    if (problem) {
      const can = free.length && !over ? t("join_can_other") : t("join_can_watch");
      root.append(el("div", { class: "join-problem", role: "alert", tabindex: "-1" },
        el("p", {}, el("strong", {}, problem), " ", can),
        el("p", { class: "join-ways" },
          el("button", { type: "button", class: "join-watch", onclick: watch }, t("join_watch")), " ",
          el("a", { class: "button", href: "/" }, t("to_lobby")))));
    }
    if (!free.length || over) return;
    const wanted = wantedSeat();
    const nameInput = nameField("join-name", me, name);
    const box = el("p", { class: "error-line", role: "alert", hidden: true });
    const form = el("form", { class: "join-form", autocomplete: "off" },
      el("h2", {}, t("join_title")),
      el("label", { for: "join-name" }, t("your_name")), nameInput,
      box,
      el("div", { class: "seat-choices" }, free.map((x) => el("button", {
        type: "submit", name: "seat", value: String(x.seat), "data-seat": String(x.seat),
        class: x.seat === wanted ? "primary" : null,
      }, t("take_seat", { n: x.seat + 1 })))));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const chosen = Number.parseInt((e.submitter && e.submitter.value) || String(free[0].seat), 10);
      await take(chosen, nameInput.value.trim(), box);
    });
    root.append(form);
    if (wasFocused) nameInput.focus();
  }

  return { render };
}
