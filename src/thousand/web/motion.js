// The table's motion: cards dealt into the hand, flying from their player to the trick and
// from the trick to the taker, the talon turning over, a marriage showing. The board is
// drawn afresh from every view, so motion compares what was on the screen before a render
// (capture) with what is there after it (play) and animates the difference with the Web
// Animations API: short (at most MAX_MS, delay included), never awaited (input is never held
// back: the cards can be played while they move), and none at all under
// prefers-reduced-motion. window.thousandMotion counts the animations for the tests.

export const MAX_MS = 300;
const stats = { count: 0, longest: 0 };
if (typeof window !== "undefined") window.thousandMotion = stats;

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether the player asked for no motion. */
export function motionOff() {
  return !!(reduced && reduced.matches);
}

function run(node, keyframes, duration, delay = 0, fill = "backwards") {
  if (motionOff() || !node || typeof node.animate !== "function") return null;
  const total = Math.min(duration + delay, MAX_MS);
  const d = Math.max(0, total - delay);
  stats.count += 1;
  stats.longest = Math.max(stats.longest, total);
  return node.animate(keyframes, { duration: d, delay, easing: "ease-out", fill });
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

function seatRect(root, seat) {
  const panel = root.querySelector(`.seat[data-seat="${seat}"]`);
  if (!panel) return null;
  const cards = panel.querySelector(".mini-hand");
  return (cards || panel).getBoundingClientRect();
}

/** What motion needs to know of the board before it is drawn again. */
export function capture(root) {
  const hand = new Map();
  for (const b of root.querySelectorAll(".hand [data-card]")) hand.set(b.dataset.card, b.getBoundingClientRect());
  return {
    deal: root.querySelector(".board")?.dataset.deal ?? null,
    hand,
    trick: new Set([...root.querySelectorAll(".trick:not(.faded) .slot[data-card]")].map((s) => s.dataset.card)),
    talonFaces: root.querySelectorAll(".talon .card.face").length,
    declarations: root.querySelectorAll(".decl-chip").length,
  };
}

/** Animate what changed since `before` (capture) in the freshly drawn board. */
export function play(root, before) {
  if (!before || motionOff()) return;
  const board = root.querySelector(".board");
  if (!board) return;
  // a card played: from the player's hand (or seat) to its place in the trick
  for (const slot of root.querySelectorAll(".trick:not(.faded) .slot[data-card]")) {
    const card = slot.dataset.card;
    if (before.trick.has(card)) continue;
    const face = slot.querySelector(".card");
    const from = before.hand.get(card) ?? seatRect(root, slot.dataset.seat);
    if (!face || !from) continue;
    const a = centre(from);
    const b = centre(face.getBoundingClientRect());
    run(face, [{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(0.85)` }, { transform: "none" }], 240);
  }
  // a new deal: the hand comes from the middle of the cloth, card after card
  const hand = [...root.querySelectorAll(".hand .card")];
  if (hand.length && (before.deal !== board.dataset.deal || before.hand.size === 0)) {
    const felt = root.querySelector(".felt");
    if (felt) {
      const c = centre(felt.getBoundingClientRect());
      hand.forEach((card, i) => {
        const r = centre(card.getBoundingClientRect());
        run(card, [{ transform: `translate(${c.x - r.x}px, ${c.y - r.y}px) scale(0.6)`, opacity: 0 },
          { transform: "none", opacity: 1 }], 200, Math.min(i * 9, 90));
      });
    }
  }
  // the talon turns over
  if (before.talonFaces === 0) {
    for (const card of root.querySelectorAll(".talon .card.face")) {
      run(card, [{ transform: "perspective(400px) rotateY(90deg)" }, { transform: "none" }], 260);
    }
  }
  // a marriage shows
  const chips = root.querySelectorAll(".decl-chip");
  if (chips.length > before.declarations) {
    run(chips[chips.length - 1], [{ transform: "scale(1.5)", filter: "brightness(1.6)" },
      { transform: "none", filter: "none" }], 280);
  }
}

/** The finished trick goes to the one who took it: its cards are copied onto the page
 * above everything and those copies fly to the taker's seat and vanish, so the board may be
 * drawn again at once (with the next card already led) while they fly. */
export function collect(root, winner) {
  const cards = [...root.querySelectorAll(".trick.held .slot .card")];
  const to = seatRect(root, winner);
  if (motionOff() || !cards.length || !to) return;
  const b = centre(to);
  for (const card of cards) {
    const r = card.getBoundingClientRect();
    const ghost = card.cloneNode(true);
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("ghost");
    Object.assign(ghost.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`,
      width: `${r.width}px`, height: `${r.height}px`, margin: "0", zIndex: "40", pointerEvents: "none" });
    document.body.append(ghost);
    const a = centre(r);
    const flight = run(ghost, [{ transform: "none", opacity: 1 },
      { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.4)`, opacity: 0.2 }], 260, 0, "forwards");
    if (flight) flight.finished.then(() => ghost.remove(), () => ghost.remove());
    else ghost.remove();
  }
}
