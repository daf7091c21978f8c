// The table drawn from a view (docs/protocol.md "View"): the players around it, the
// auction, the talon, the trick, and — for a seat to move — only the legal moves offered.
// Used by the live table (interactive) and by the replay viewer (read-only).

import { el, clear, seatName, suitWord, levelName, guestTag } from "./common.js";
import { t } from "./i18n.js";
import { format } from "./grammar.js";
import {
  cardSvg, backSvg, cardLabel, cardName, sortHand, rankOf, suitOf, pointsOf, SYMBOLS, RED,
} from "./cards.js";

const isCardMove = (m) => /^[9JQKTA][SCDH]\+?$/.test(m);
/** Two players: the declarer's choice of a talon, unseen ("talon 1", "talon 2"). */
const TALON_MOVE = /^talon ([12])$/;

/** Whether the page is used with a finger: "tap" rather than "click" in the prompts. */
export const touchScreen = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

/** A catalogue text with a player in it worded by the grammar (thousand.words.grammar.render):
 * `{name:acc}` declined with the snapshot's name forms, `{name:A|B}` B for the page's own
 * seat (second person). */
function said(text, seat, ctx) {
  const name = seatName(seat, ctx.names, ctx.lang, ctx.mySeat ?? null);
  return format(text, { name }, ctx.lang, null, ctx.forms || null);
}

/** Where a seat sits, seen from `me` (clockwise: the next seat is on my left). */
export function position(seat, me, n) {
  const off = (seat - (me ?? 0) + n) % n;
  if (off === 0) return "bottom";
  if (n === 2) return "top"; // two players: the opponent across the table
  if (n === 3) return off === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][off];
}

export function cardFace(card, lang, extra = {}) {
  return el("span", { class: `card face ${RED.has(suitOf(card)) ? "red" : "black"}`, role: "img",
    "aria-label": cardName(card, lang), ...extra }, cardSvg(card, lang));
}

/** The card a hint (or the analysis' better move) names: "give 9S" and "KH+" name 9S and KH. */
function hintedCard(ctx) {
  return ctx.hint ? ctx.hint.replace(/^(give|discard) /, "").replace("+", "") : null;
}

function cardBack(extra = {}) {
  return el("span", { class: "card back", "aria-hidden": "true", ...extra }, backSvg());
}

/** A move in words for a button or a line ("Пас", "Т♥", "отдать 9♠", "120"). */
export function moveLabel(move, view, rules, lang) {
  if (move === "pass") {
    if (view.phase === "buy") return t("act_no_buy");
    if (view.phase === "redeal offer") return t("act_no_redeal");
    return t("act_pass");
  }
  if (move === "dark") return t("act_dark");
  if (move === "look") return t("act_look");
  if (move === "buy") return t("act_buy", { price: view.buy_price ?? "" });
  if (move === "redeal") return t("act_redeal");
  if (move === "concede") return t("act_concede");
  const talon = TALON_MOVE.exec(move);
  if (talon) return t("act_talon", { n: talon[1] });
  if (/^\d+$/.test(move)) {
    if (move === "100" && rules && rules.opening_bid === "exactly_100" && !view.auction.length) {
      return t("act_sit_100");
    }
    return move;
  }
  const c = /^contract (\d+)$/.exec(move);
  if (c) return c[1];
  if (isCardMove(move)) return cardLabel(move.replace("+", ""), lang) + (move.endsWith("+") ? "+" : "");
  const g = /^(give|discard) (\S+)$/.exec(move);
  if (g) return `${g[1] === "give" ? t("act_give") : t("act_discard")} ${cardLabel(g[2], lang)}`;
  return move;
}

/** Who the declarer gives the next card to (exchange give_one_each). */
function nextRecipient(view) {
  const d = view.declarer;
  if (d === null || d === undefined) return null;
  const active = view.active || [];
  const i = active.indexOf(d);
  const order = [];
  for (let k = 1; k < active.length; k++) order.push(active[(i + k) % active.length]);
  return order[(view.given || []).length] ?? null;
}

function lastAuctionMove(view, seat) {
  let last = null;
  for (const a of view.auction || []) if (a.seat === seat) last = a.move;
  return last;
}

function auctionWord(move) {
  if (move === null || move === undefined) return null;
  if (move === "pass") return t("act_pass");
  if (move === "dark") return t("bid_dark_short");
  if (move === "look") return null;
  if (move === "redeal") return t("act_redeal");
  return move;
}

function statusLine(view, names, lang, rules) {
  const parts = [];
  const g = view.game;
  if (g && g.deal) parts.push(t("deal_n", { n: g.deal }));
  if (view.golden) parts.push(t("golden_deal"));
  switch (view.phase) {
    case "dark choice":
    case "auction":
      parts.push(view.high_bid
        ? t("status_auction", { bid: view.high_bid, name: seatName(view.high_bidder, names, lang) })
        : t("status_auction_open"));
      break;
    case "buy":
      parts.push(t("status_buy", { name: seatName(view.declarer, names, lang), bid: view.bid ?? "",
        price: view.buy_price ?? "" }));
      break;
    case "redeal offer":
    case "talon choice":
    case "exchange":
    case "contract":
      parts.push(t("status_declarer", { name: seatName(view.declarer, names, lang), bid: view.bid ?? "" }));
      break;
    case "play":
      parts.push(t("status_contract", { name: seatName(view.declarer, names, lang),
        n: view.contract ?? view.bid ?? "" }));
      break;
    default:
      break;
  }
  if (view.dark) parts.push(t("dark_deal"));
  return parts.join(" · ");
}

function seatPanel(seat, ctx) {
  const { view, names, seats, lang, mySeat, hands } = ctx;
  const n = view.hand_sizes.length;
  const pos = position(seat, mySeat, n);
  const g = view.game;
  const meta = seats && seats.find((s) => s.seat === seat);
  const active = (view.active || []).includes(seat);
  const free = !!(meta && meta.kind !== "bot" && meta.taken === false);
  const turn = view.to_move === seat && !view.result && !ctx.waiting && !free;
  const classes = ["seat", `pos-${pos}`];
  if (turn) classes.push("turn");
  if (view.declarer === seat) classes.push("declarer");
  if (!active) classes.push("sits-out");
  const name = seatName(seat, names, lang);
  const head = el("div", { class: "seat-head" },
    el("span", { class: "name" }, name),
    seat === mySeat ? el("span", { class: "tag you" }, t("you_tag")) : null,
    // the live table reports a person at another seat to the moderators (report.js)
    ctx.onReport && seat !== mySeat && meta && meta.kind !== "bot" && meta.taken
      ? el("button", { type: "button", class: "small seat-report", "data-seat": String(seat),
        "aria-label": t("report_label", { name }), title: t("report_label", { name }),
        "aria-haspopup": "dialog", onclick: () => ctx.onReport(seat, name) }, "⚑") : null,
    meta && meta.kind !== "bot" && meta.guest ? guestTag() : null,
    // «бот: любитель»; where a seat's box is narrow (a phone's side seats) only
    // «любитель», whole (the tag's colour says bot), never broken over two lines
    meta && meta.kind === "bot" ? el("span", { class: "tag bot" },
      el("span", { class: "tag-long" }, t("bot_tag", { level: levelName(meta.level) })),
      el("span", { class: "tag-short" }, levelName(meta.level))) : null,
    meta && meta.kind !== "bot" && meta.bot_playing ? el("span", { class: "tag bot" }, said(t("standin_tag"), seat, ctx)) : null,
    meta && meta.away ? el("span", { class: "tag away", title: said(t("away_title"), seat, ctx) }, t("away_tag")) : null,
    meta && meta.kind !== "bot" && meta.taken === false ? el("span", { class: "tag free" }, t("seat_free")) : null,
    meta && meta.kind !== "bot" && meta.taken && meta.online === false
      ? el("span", { class: "tag offline" }, t("offline")) : null,
    view.dealer === seat ? el("span", { class: "tag dealer", title: t("dealer") }, t("dealer_short")) : null,
  );
  const info = [];
  if (g) {
    info.push(el("span", { class: "score" }, t("score_n", { n: g.scores[seat] })));
    if (g.on_barrel && g.on_barrel[seat]) {
      const left = g.barrel_deals_left ? g.barrel_deals_left[seat] : null;
      info.push(el("span", { class: "mark barrel" }, left === null || left === undefined
        ? t("mark_barrel") : t("mark_barrel_left", { n: left })));
    }
    if (g.bolts && g.bolts[seat]) info.push(el("span", { class: "mark bolt" }, t("mark_bolts", { n: g.bolts[seat] })));
  }
  const bidWord = ["dark choice", "auction"].includes(view.phase) ? auctionWord(lastAuctionMove(view, seat)) : null;
  if (bidWord) info.push(el("span", { class: "mark bid" }, bidWord));
  if (view.declarer === seat && view.phase !== "auction") {
    info.push(el("span", { class: "mark decl" }, t("plays_n", { n: view.contract ?? view.bid ?? "" })));
  }
  if (view.phase === "play" || view.result) {
    info.push(el("span", { class: "mark tricks" }, t("tricks_n", { n: view.tricks_won[seat], p: view.taken[seat] + (view.bonus ? view.bonus[seat] : 0) })));
  }
  if (turn) info.push(el("span", { class: "mark turn-mark" }, t("to_move")));
  // a move clock on the seat to move; a game clock on every person's seat (table.js tickClock)
  const gameClock = ctx.clock && Array.isArray(ctx.clock.remaining) && meta && meta.kind !== "bot";
  if (gameClock || (turn && ctx.clock && ctx.clock.seat === seat)) {
    info.push(el("span", { class: "mark clock", "data-clock-seat": String(seat), role: "timer" }));
  }
  const panel = el("section", { class: classes.join(" "), "aria-label": name, "data-seat": String(seat),
    "aria-current": turn ? "true" : null },
    head, el("div", { class: "seat-info" }, info));
  if (seat !== (mySeat ?? 0)) {
    const size = view.hand_sizes[seat];
    const open = hands && hands[seat];
    // the count in words for a screen reader (a plain div takes no aria-label), in figures for the eye
    const cards = el("div", { class: open ? "mini-hand open" : "mini-hand" },
      el("span", { class: "sr-only" }, open ? t("cards_of", { name }) : t("n_cards", { n: size })));
    if (open) {
      for (const c of sortHand(open)) {
        cards.append(cardFace(c, lang, { class: hintedCard(ctx) === c ? "card face small hinted" : "card face small",
          "data-card": c }));
      }
    }
    else for (let i = 0; i < size; i++) cards.append(cardBack({ class: "card back small" }));
    if (!open && size) cards.append(el("span", { class: "count", "aria-hidden": "true" }, String(size)));
    panel.append(cards);
  }
  return panel;
}

function trickArea(ctx) {
  const { view, names, lang, mySeat } = ctx;
  const n = view.hand_sizes.length;
  let cards = view.trick || [];
  let caption = null;
  let faded = false;
  let held = false;
  const tricks = view.tricks || [];
  const last = tricks.length ? tricks[tricks.length - 1] : null;
  // "Взятку берёт Аня" — and on Аня's own page "Вы берёте взятку"
  const takenBy = (trick) => said(t("trick_taken_by", { points: trick.points }), trick.winner, ctx);
  if (ctx.trickShown) {
    cards = ctx.trickShown.cards;
    held = true;
    caption = takenBy(ctx.trickShown);
  } else if (ctx.showLastTrick && last) {
    cards = last.cards;
    caption = t("last_trick_caption", { name: seatName(last.winner, names, lang), points: last.points });
  } else if (!cards.length && last && (view.phase === "play" || view.result) && ctx.collected !== tricks.length) {
    cards = last.cards;
    faded = true;
    caption = takenBy(last);
  }
  // before the play nothing lies there: the felt may give its room to the talons
  const empty = !cards.length && !["play", "over"].includes(view.phase) && !view.result;
  const area = el("div", { class: `trick n${n}${faded ? " faded" : ""}${held ? " held" : ""}${empty ? " empty" : ""}`, role: "group",
    "aria-label": t("trick_label") });
  for (const { seat, card } of cards) {
    area.append(el("div", { class: `slot pos-${position(seat, mySeat, n)}`, "data-card": card, "data-seat": String(seat) },
      cardFace(card, lang, { "aria-label": `${seatName(seat, names, lang)}: ${cardName(card, lang)}` })));
  }
  const out = [area];
  if (caption) out.push(el("div", { class: "trick-caption" }, caption));
  return out;
}

function talonArea(ctx) {
  const { view, lang } = ctx;
  const phase = view.phase;
  if (view.hand_sizes.length === 2) return twoTalons(ctx);
  if (!["dark choice", "auction", "buy", "redeal offer", "exchange", "contract"].includes(phase)) return null;
  const box = el("div", { class: "talon", role: "group", "aria-label": t("talon") },
    el("div", { class: "talon-title" }, t("talon")));
  const row = el("div", { class: "talon-cards" });
  if (view.talon) {
    for (const c of view.talon) row.append(cardFace(c, lang));
  } else if (phase === "dark choice" || phase === "auction") {
    const known = view.talon_known || [];
    for (const c of known) row.append(cardFace(c, lang));
    const size = ctx.rules && ctx.rules.exchange === "discard_three" && view.hand_sizes.length === 4 ? 4 : 3;
    for (let i = known.length; i < Math.max(size, 3); i++) row.append(cardBack());
  } else {
    row.append(el("span", { class: "muted" }, t("talon_hidden")));
  }
  box.append(row);
  return box;
}

/** Whether the page's own seat chooses a talon now (it may click one). */
function choosingTalon(ctx) {
  const { view } = ctx;
  return !!ctx.interactive && view.phase === "talon choice" && view.to_move === ctx.mySeat
    && (view.legal || []).some((m) => TALON_MOVE.test(m));
}

/** The cards of one of the two talons as this seat sees them: the chosen one as the view
 * shows it (turned over, or face down when it is not shown), the other face down — but
 * the cut's card the dealer glimpsed, which lies in talon 2 — until the deal ends, when
 * the view turns it over. */
function pileCards(n, ctx, over) {
  const { view, lang } = ctx;
  const chosen = view.talon_choice ?? null;
  let faces = [];
  if (n === chosen && view.talon) faces = view.talon;
  else if (n !== chosen && chosen !== null && over && view.other_talon) faces = view.other_talon;
  else if (n === 2 && chosen === null) faces = view.talon_known || [];
  const out = faces.map((c) => cardFace(c, lang));
  for (let i = faces.length; i < 2; i++) out.push(cardBack());
  return out;
}

/** What a talon pile is, for a screen reader (the figure «1» is for the eye). */
function pileState(n, ctx, over) {
  const chosen = ctx.view.talon_choice ?? null;
  if (chosen === null) return t("talon_pile_closed", { n });
  if (n === chosen) return ctx.view.talon ? t("talon_pile_taken", { n }) : t("talon_pile_taken_hidden", { n });
  return over && ctx.view.other_talon ? t("talon_pile_other", { n }) : t("talon_pile_closed", { n });
}

/** One of the two talons: a button for the declarer who chooses, else a labelled pile. */
function talonPile(n, ctx, over) {
  const chosen = ctx.view.talon_choice ?? null;
  const classes = ["talon-pile"];
  if (chosen === n) classes.push("chosen");
  else if (chosen !== null) classes.push("other");
  const inside = [el("span", { class: "talon-no", "aria-hidden": "true" }, String(n)),
    el("span", { class: "talon-cards" }, pileCards(n, ctx, over))];
  if (choosingTalon(ctx)) {
    const move = `talon ${n}`;
    classes.push("choosable");
    if (ctx.hint === move) classes.push("hinted");
    return el("button", { type: "button", class: classes.join(" "), "data-fk": `pile-${n}`,
      "data-talon": String(n), "aria-label": t("act_take_talon", { n }),
      disabled: ctx.busy ? true : null, onclick: () => ctx.onMove(move) }, inside);
  }
  return el("div", { class: classes.join(" "), "data-talon": String(n) },
    el("span", { class: "sr-only" }, pileState(n, ctx, over)), inside);
}

/** Two players (docs/protocol.md "Two players"): talon 1 and talon 2 side by side, face
 * down until the declarer chooses one; the chosen one turned over as the view says; the
 * other turned over when the deal ends, with a line that its points went to the defender.
 * Nothing while the cards are played: the felt is the trick's. */
function twoTalons(ctx) {
  const { view } = ctx;
  const over = !!view.result || view.phase === "over";
  if (view.phase === "play" && !over) return null;
  const box = el("div", { class: "talon two", role: "group", "aria-label": t("talons_label") },
    el("div", { class: "talon-title" }, t("talons_label")),
    el("div", { class: "talon-piles" }, [1, 2].map((n) => talonPile(n, ctx, over))));
  const note = over ? otherTalonNote(view.talon_choice, view.other_talon, view, ctx) : previousTalonNote(ctx);
  if (note) box.append(el("div", { class: "talon-note" }, note));
  return box;
}

/** The live table's next deal begins as the last one ends: until its auction is over the
 * cloth still says what the last deal's other talon was (`ctx.lastOtherTalon`: {chosen,
 * cards, declarer, active} from its events) and whose its points are. */
function previousTalonNote(ctx) {
  const last = ctx.lastOtherTalon;
  if (!last || (ctx.view.declarer !== null && ctx.view.declarer !== undefined)) return null;
  const note = otherTalonNote(last.chosen, last.cards, last, ctx);
  const cards = last.cards.map((c) => cardLabel(c, ctx.lang)).join(" ");
  return note ? `${t("other_talon_before", { cards })} ${note}` : null;
}

/** «Невзятый прикуп 2 (+15) — Боре, защитнику»: where the other talon's points went, for
 * the deal `view` shows the end of (`chosen` the declarer's talon, `cards` the other). */
export function otherTalonNote(chosen, cards, view, ctx) {
  if (!chosen || !Array.isArray(cards) || view.declarer === null || view.declarer === undefined) return null;
  const defender = (view.active || []).find((s) => s !== view.declarer);
  if (defender === undefined) return null;
  const points = cards.reduce((sum, c) => sum + pointsOf(c), 0);
  return said(t("other_talon_note", { n: 3 - chosen, points }), defender, ctx);
}

function trumpBadge(view, lang, names) {
  const parts = [];
  if (view.trump) {
    parts.push(el("span", { class: `trump ${RED.has(view.trump) ? "red" : "black"}` },
      t("trump_is", { suit: suitWord(view.trump, lang) }), " ",
      el("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[view.trump])));
  } else if (view.phase === "play") {
    parts.push(el("span", { class: "trump none" }, t("no_trump_yet")));
  }
  for (const d of view.declarations || []) {
    parts.push(el("span", { class: "decl-chip" }, t("decl_chip", {
      name: seatName(d.seat, names, lang), sym: SYMBOLS[d.suit] ?? "", points: d.points })));
  }
  return parts;
}

/** What the page says of the moment: whose move, or what the reader is to do. */
export function promptText(ctx) {
  const { view, names, lang, mySeat } = ctx;
  if (view.result || view.phase === "over") return t("deal_over");
  if (ctx.waiting) return t("prompt_waiting");
  const mine = mySeat !== null && mySeat !== undefined && view.to_move === mySeat && view.legal.length;
  if (!mine) {
    if (view.to_move === null || view.to_move === undefined) return "";
    return t("waiting_for", { name: seatName(view.to_move, names, lang) });
  }
  if (ctx.pendingDeclare) return t("prompt_marriage", { card: cardLabel(ctx.pendingDeclare, lang) });
  if (ctx.picked) return t("prompt_tap_again", { card: cardLabel(ctx.picked, lang) });
  const pick = touchScreen() ? t("pick_tap") : t("pick_click");
  switch (view.phase) {
    case "dark choice": return t("prompt_dark");
    case "auction": return t("prompt_bid");
    case "buy": return t("prompt_buy", { price: view.buy_price ?? "" });
    case "redeal offer": return t("prompt_redeal");
    case "talon choice": return t("prompt_talon_choice", { pick: touchScreen() ? t("pick_talon_tap") : t("pick_talon_click") });
    case "exchange":
      if (view.legal.some((m) => m.startsWith("discard "))) {
        return t("prompt_discard", { pick, n: Math.max(0, view.hand_sizes[mySeat] - Math.min(...view.hand_sizes.filter((_, s) => s !== mySeat && (view.active || []).includes(s)))) });
      }
      return t("prompt_give", { pick, name: seatName(nextRecipient(view), names, lang) });
    case "contract":
      return view.legal.includes("concede") ? t("prompt_contract_concede", { bid: view.bid ?? "" })
        : t("prompt_contract", { bid: view.bid ?? "" });
    case "play": return view.trick.length ? t("prompt_follow") : t("prompt_lead");
    default: return t("your_move");
  }
}

function actionButtons(ctx) {
  const { view, lang, rules } = ctx;
  const legal = ctx.interactive ? view.legal : [];
  const buttons = [];
  if (ctx.pendingDeclare) {
    const c = ctx.pendingDeclare;
    const suit = suitOf(c);
    const values = (rules && rules.marriage_values) || { S: 40, C: 60, D: 80, H: 100 };
    const kq = ["K", "Q"].includes(rankOf(c));
    buttons.push({ move: `${c}+`, label: kq
      ? t("act_with_marriage", { points: values[suit] ?? "", suit: suitWord(suit, lang) })
      : t("act_declare", { card: cardLabel(c, lang) }), primary: true });
    buttons.push({ move: c, label: t("act_without_marriage") });
    buttons.push({ move: null, label: t("act_cancel"), cancel: true });
  } else {
    for (const m of legal) {
      if (isCardMove(m) || m.startsWith("give ") || m.startsWith("discard ")) continue;
      buttons.push({ move: m, label: moveLabel(m, view, rules, lang), primary: m === "buy" });
    }
  }
  const bar = el("div", { class: "actions", role: "toolbar", "aria-label": t("moves_label") });
  buttons.forEach((b, i) => {
    const key = i < 9 ? String(i + 1) : null;
    const classes = ["act"];
    if (b.primary) classes.push("primary");
    if (/^\d+$/.test(b.move ?? "") || /^contract /.test(b.move ?? "")) classes.push("num");
    if (ctx.hint && ctx.hint === b.move) classes.push("hinted");
    const btn = el("button", {
      type: "button", class: classes.join(" "), "data-fk": `act-${b.move ?? "cancel"}`,
      "data-key": key, "aria-keyshortcuts": key, disabled: ctx.busy && !b.cancel ? true : null,
      onclick: () => (b.cancel ? ctx.onDeclareChoice(null) : ctx.onMove(b.move)),
    }, key ? el("kbd", { "aria-hidden": "true" }, key) : null, b.label);
    bar.append(btn);
  });
  return bar;
}

function handRow(ctx) {
  const { view, lang, mySeat, hands } = ctx;
  const seat = mySeat ?? 0;
  let cards = view.hand;
  let own = mySeat !== null && mySeat !== undefined;
  if (!own || cards === null) {
    cards = hands && hands[seat] ? hands[seat] : null;
  }
  const row = el("div", { class: "hand", role: "group", style: `--n: ${Math.max(1, (cards || []).length || view.hand_sizes[seat] || 1)}`,
    "aria-label": own ? t("your_cards") : t("cards_of", { name: seatName(seat, ctx.names, lang) }) });
  if (cards === null) {
    const size = view.hand_sizes[seat] ?? 0;
    if (own && view.phase === "dark choice") row.append(el("p", { class: "muted" }, t("hand_face_down")));
    for (let i = 0; i < size; i++) row.append(cardBack());
    return row;
  }
  const legal = ctx.interactive ? view.legal : [];
  const cardPhase = legal.some((m) => isCardMove(m) || m.startsWith("give ") || m.startsWith("discard "));
  const talon = new Set(["exchange", "contract", "buy", "redeal offer"].includes(view.phase) ? view.talon || [] : []);
  const sorted = sortHand(cards);
  sorted.forEach((c, i) => {
    const playable = legal.includes(c) || legal.includes(`${c}+`) || legal.includes(`give ${c}`)
      || legal.includes(`discard ${c}`);
    const classes = ["card", "face", RED.has(suitOf(c)) ? "red" : "black"];
    if (playable) classes.push("playable");
    if (talon.has(c)) classes.push("from-talon");
    if (ctx.pendingDeclare === c || ctx.picked === c) classes.push("selected");
    if (hintedCard(ctx) === c) classes.push("hinted");
    if (!own || !ctx.interactive) {
      row.append(el("span", { class: classes.join(" "), role: "img", "data-card": c,
        "aria-label": `${cardLabel(c, lang)} — ${cardName(c, lang)}` }, cardSvg(c, lang)));
      return;
    }
    // the name starts with what the card shows ("Т♥"), then says it in words
    const label = `${cardLabel(c, lang)} — ${cardName(c, lang)}` + (cardPhase && !playable ? t("card_not_playable_suffix") : "")
      + (talon.has(c) ? t("card_from_talon_suffix") : "");
    const btn = el("button", {
      type: "button", class: classes.join(" "), "data-fk": `card-${c}`, "data-card": c,
      "data-index": String(i + 1), "aria-label": label,
      "aria-disabled": cardPhase && !playable ? "true" : null,
      disabled: ctx.busy ? true : null,
      tabindex: "-1",
      "aria-pressed": ctx.picked === c ? "true" : null,
      onclick: (e) => ctx.onCard(c, e),
    }, cardSvg(c, lang));
    row.append(btn);
  });
  // roving focus: one card in the tab order, arrows move between them
  const buttons = [...row.querySelectorAll("button.card")];
  const first = buttons.find((b) => b.classList.contains("playable")) ?? buttons[0];
  if (first) first.tabIndex = 0;
  return row;
}

/** Draw the whole table into `root` (see the module's comment for ctx). */
export function renderBoard(root, ctx) {
  const { view, names, lang } = ctx;
  const n = view.hand_sizes.length;
  const me = ctx.mySeat;
  const focusKey = document.activeElement && root.contains(document.activeElement)
    ? document.activeElement.dataset.fk : null;
  const focusIndex = focusKey && focusKey.startsWith("card-")
    ? [...root.querySelectorAll("button.card")].indexOf(document.activeElement) : -1;

  const board = el("div", { class: `board n${n}`, "data-deal": String(view.game && view.game.deal ? view.game.deal : "") });
  const bottom = me ?? 0;
  for (let s = 0; s < n; s++) if (s !== bottom) board.append(seatPanel(s, ctx));
  const felt = el("div", { class: "felt" },
    el("div", { class: "status" }, statusLine(view, names, lang, ctx.rules)),
    el("div", { class: "badges" }, trumpBadge(view, lang, names)),
    trickArea(ctx),
    talonArea(ctx),
  );
  if (ctx.onToggleLastTrick && (view.tricks || []).length) {
    felt.append(el("button", { type: "button", class: "link last-trick", "data-fk": "last-trick",
      "aria-pressed": ctx.showLastTrick ? "true" : "false", "aria-keyshortcuts": "L",
      onclick: ctx.onToggleLastTrick }, t("last_trick")));
  }
  board.append(felt);
  board.append(seatPanel(bottom, ctx));
  board.append(el("div", { class: "prompt" }, promptText(ctx)));
  board.append(actionButtons(ctx));
  board.append(handRow(ctx));
  clear(root, board);

  if (focusKey) {
    let target = root.querySelector(`[data-fk="${CSS.escape(focusKey)}"]`);
    if (!target || target.disabled) {
      const cards = [...root.querySelectorAll("button.card:not([disabled])")];
      const acts = [...root.querySelectorAll(".actions button:not([disabled])")];
      if (focusKey.startsWith("card-") && cards.length) {
        target = cards.find((b) => b.classList.contains("playable")) ?? cards[Math.min(Math.max(focusIndex, 0), cards.length - 1)];
      } else {
        target = acts[0] ?? cards.find((b) => b.classList.contains("playable")) ?? cards[0];
      }
    }
    if (target) {
      if (target.classList.contains("card")) {
        for (const b of root.querySelectorAll("button.card")) b.tabIndex = -1;
        target.tabIndex = 0;
      }
      target.focus({ preventScroll: true });
    }
  }
}

/** Arrow keys inside the hand and the action bar (roving focus). */
export function handleArrows(e, root) {
  const target = e.target;
  if (!(target instanceof HTMLElement) || !root.contains(target)) return false;
  const group = target.closest(".hand, .actions, .talon-piles");
  if (!group) return false;
  const items = [...group.querySelectorAll("button:not([disabled])")];
  const i = items.indexOf(target);
  if (i < 0) return false;
  let j = null;
  if (e.key === "ArrowRight") j = (i + 1) % items.length;
  else if (e.key === "ArrowLeft") j = (i - 1 + items.length) % items.length;
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = items.length - 1;
  else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
    // between the hand and the moves
    const other = root.querySelector(group.classList.contains("hand") ? (e.key === "ArrowUp" ? ".actions" : null) : (e.key === "ArrowDown" ? ".hand" : null));
    const first = other && (other.querySelector("button.playable:not([disabled])") ?? other.querySelector("button:not([disabled])"));
    if (first) {
      if (first.classList.contains("card")) {
        for (const b of other.querySelectorAll("button.card")) b.tabIndex = -1;
        first.tabIndex = 0;
      }
      first.focus();
      return true;
    }
    return false;
  }
  if (j === null) return false;
  if (group.classList.contains("hand")) {
    for (const b of items) b.tabIndex = -1;
    items[j].tabIndex = 0;
  }
  items[j].focus();
  return true;
}
