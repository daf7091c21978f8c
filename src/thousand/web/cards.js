// Cards: notation, names, sorting, and the SVG drawings (face and back).
// A card is its record notation: "AH", "TS", "9C" (ranks 9 J Q K T A, suits S C D H).

const SVG = "http://www.w3.org/2000/svg";

export const SUITS = "SCDH";
export const RANKS = "9JQKTA";
export const SYMBOLS = { S: "♠", C: "♣", D: "♦", H: "♥" };
export const RED = new Set(["D", "H"]);

const RANK_LABEL = {
  ru: { 9: "9", J: "В", Q: "Д", K: "К", T: "10", A: "Т" },
  en: { 9: "9", J: "J", Q: "Q", K: "K", T: "10", A: "A" },
};
const RANK_NAME = {
  ru: { 9: "девятка", J: "валет", Q: "дама", K: "король", T: "десятка", A: "туз" },
  en: { 9: "nine", J: "jack", Q: "queen", K: "king", T: "ten", A: "ace" },
};
const SUIT_OF = {
  ru: { S: "пик", C: "треф", D: "бубен", H: "червей" },
  en: { S: "spades", C: "clubs", D: "diamonds", H: "hearts" },
};
export const SUIT_NAME = {
  ru: { S: "пики", C: "трефы", D: "бубны", H: "черви" },
  en: { S: "spades", C: "clubs", D: "diamonds", H: "hearts" },
};
// The engine's card points (engine/cards.py RANK_POINTS); tests/test_web_static.py ties
// them, the labels and the suits' names to the engine and the catalogue.
const POINTS = { 9: 0, J: 2, Q: 3, K: 4, T: 10, A: 11 };

export const rankOf = (card) => card.slice(0, -1);
export const suitOf = (card) => card.slice(-1);
export const pointsOf = (card) => POINTS[rankOf(card)] ?? 0;

/** "Т♥" / "A♥": a card as players write it. */
export function cardLabel(card, lang = "ru") {
  if (!card) return "?";
  const labels = RANK_LABEL[lang === "ru" ? "ru" : "en"];
  return (labels[rankOf(card)] ?? rankOf(card)) + (SYMBOLS[suitOf(card)] ?? "?");
}

/** "туз червей" / "ace of hearts": the accessible name of a card. */
export function cardName(card, lang = "ru") {
  if (!card) return lang === "ru" ? "закрытая карта" : "face-down card";
  const l = lang === "ru" ? "ru" : "en";
  const rank = RANK_NAME[l][rankOf(card)] ?? rankOf(card);
  const suit = SUIT_OF[l][suitOf(card)] ?? suitOf(card);
  return l === "ru" ? `${rank} ${suit}` : `${rank} of ${suit}`;
}

/** A card in record notation ("AH", "TS"). */
export const CARD = /^[9JQKTA][SCDH]$/;

/** A card in record notation (as the engine writes cards: "AH", "TS"), or null.  What a
 * player types is read with the served vocabulary (common.js typedMove), not here. */
export function parseCard(text) {
  const t = String(text ?? "").trim().toUpperCase();
  return CARD.test(t) ? t : null;
}

// Suits alternate black and red in a hand; highest card first inside a suit.
const HAND_ORDER = { S: 0, D: 1, C: 2, H: 3 };

/** A hand sorted by suit (black and red in turn), highest first. */
export function sortHand(cards) {
  return [...(cards ?? [])].sort((a, b) => {
    const s = HAND_ORDER[suitOf(a)] - HAND_ORDER[suitOf(b)];
    return s !== 0 ? s : RANKS.indexOf(rankOf(b)) - RANKS.indexOf(rankOf(a));
  });
}

function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

const W = 60;
const H = 84;

// The suits as shapes in a 20×20 box: the big sign in the middle of a card is drawn, not
// written, so that the only text on a card is its index ("10♠"), which the card button's
// accessible name starts with (a name must contain the text one sees).
const SUIT_PATHS = {
  H: ["M10 18.5 L2.6 10.8 A4.6 4.6 0 0 1 10 4.6 A4.6 4.6 0 0 1 17.4 10.8 Z"],
  D: ["M10 1 L17.5 10 L10 19 L2.5 10 Z"],
  S: ["M10 1.5 L17.4 9.4 A4.4 4.4 0 0 1 10 14.6 A4.4 4.4 0 0 1 2.6 9.4 Z", "M10 11 L13.2 19 L6.8 19 Z"],
  C: ["M6 6 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0", "M1.9 12.2 a3.9 3.9 0 1 0 7.8 0 a3.9 3.9 0 1 0 -7.8 0",
    "M10.3 12.2 a3.9 3.9 0 1 0 7.8 0 a3.9 3.9 0 1 0 -7.8 0", "M10 9 L12.8 19.5 L7.2 19.5 Z"],
};

/** The face of a card as an SVG element (decorative: the button around it has the name). */
export function cardSvg(card, lang = "ru") {
  const suit = suitOf(card);
  const color = RED.has(suit) ? "#c0392b" : "#1b1b1b";
  const rank = (RANK_LABEL[lang === "ru" ? "ru" : "en"][rankOf(card)]) ?? rankOf(card);
  const sym = SYMBOLS[suit] ?? "?";
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "card-svg", "aria-hidden": "true", focusable: "false",
  });
  svg.append(
    svgEl("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 6, fill: "#fffdf8",
      stroke: "#8a8a8a", "stroke-width": 1.2 }),
    svgEl("text", { x: 5, y: 18, fill: color, "font-size": rank.length > 1 ? 15 : 17,
      "font-weight": 700, "font-family": "system-ui, sans-serif" }, rank),
    svgEl("text", { x: 6, y: 33, fill: color, "font-size": 14,
      "font-family": "system-ui, sans-serif" }, sym),
  );
  const big = svgEl("g", { transform: `translate(${W / 2 - 13} ${H / 2 - 6}) scale(1.45)`, fill: color });
  for (const d of SUIT_PATHS[suit] ?? []) big.append(svgEl("path", { d }));
  svg.append(big);
  return svg;
}

/** The back of a card. */
export function backSvg() {
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "card-svg back", "aria-hidden": "true", focusable: "false",
  });
  svg.append(
    svgEl("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 6, fill: "#24508c",
      stroke: "#13294a", "stroke-width": 1.2 }),
    svgEl("rect", { x: 6, y: 6, width: W - 12, height: H - 12, rx: 4, fill: "none",
      stroke: "#9fb8e0", "stroke-width": 1.5 }),
    svgEl("path", { d: `M${W / 2} 14 L${W - 12} ${H / 2} L${W / 2} ${H - 14} L12 ${H / 2} Z`,
      fill: "#2f64ad", stroke: "#c9d8f0", "stroke-width": 1.5 }),
    svgEl("path", { d: `M${W / 2} 28 L${W - 24} ${H / 2} L${W / 2} ${H - 28} L24 ${H / 2} Z`,
      fill: "none", stroke: "#c9d8f0", "stroke-width": 1.2 }),
  );
  return svg;
}
