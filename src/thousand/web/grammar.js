// The template grammar of thousand.words.grammar.render, for the catalogue /api/texts serves:
// `{f}`, `{f:case}` (a name declined: the forms come from the server, grammar.name_forms),
// `{f:A|B}` (B when the field is the reader: second person; either may hold marks),
// `{f:#one|few|many}` (a count with its word agreed).  Python and this port must agree:
// tests/test_web_static.py compares them line by line.

import { cardLabel, parseCard } from "./cards.js";

export const CASES = ["nom", "gen", "dat", "acc", "ins", "loc", "poss"];
const OWN_YOU = {
  ru: { nom: "вы", gen: "вас", dat: "вам", acc: "вас", ins: "вами", loc: "вас", poss: "ваш" },
  en: { nom: "you", gen: "you", dat: "you", acc: "you", ins: "you", loc: "you", poss: "your" },
};
/** What the reader's own seat is called (thousand.words.grammar.YOU). */
export const YOU_NAME = { ru: "Вы", en: "You" };

const langOf = (lang) => (lang === "ru" ? "ru" : "en");

/** Whether `name` is the reader: "Вы" or "You" (in any letter case). */
export function isYou(name) {
  return typeof name === "string" && ["вы", "you"].includes(name.trim().toLowerCase());
}

function closing(t, start) {
  let depth = 0;
  for (let i = start; i < t.length; i++) {
    if (t[i] === "{") depth++;
    else if (t[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function alternatives(spec) {
  const out = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "|" && depth === 0) {
      out.push(spec.slice(last, i));
      last = i + 1;
    }
  }
  out.push(spec.slice(last));
  return out;
}

/** The word of `forms` that agrees with `n`: Russian (one, few, many), English (one, other). */
export function plural(n, forms, lang) {
  n = Math.abs(Math.trunc(n));
  if (lang === "ru" && forms.length >= 3) {
    const n10 = n % 10;
    const n100 = n % 100;
    if (n10 === 1 && n100 !== 11) return forms[0];
    if (n10 >= 2 && n10 <= 4 && !(n100 >= 12 && n100 <= 14)) return forms[1];
    return forms[2];
  }
  return n === 1 ? forms[0] : forms[forms.length - 1];
}

const capital = (s) => s.slice(0, 1).toUpperCase() + s.slice(1);

/** A name in a case: the server's forms (grammar.name_forms) when it sent them. */
function declined(value, kase, ctx) {
  const forms = ctx.forms && ctx.forms[String(value)];
  if (forms && forms[kase]) return forms[kase];
  return ctx.lang === "en" && kase === "poss" ? `${value}'s` : String(value);
}

function field(name, spec, values, ctx, first) {
  const v = values[name];
  const missing = v === undefined || v === null;
  const you = isYou(v);
  if (spec === null || spec === "") {
    if (you) return first ? capital(ctx.you.nom) : ctx.you.nom;
    return missing ? "?" : String(v);
  }
  if (spec.startsWith("#")) {
    const forms = spec.slice(1).split("|");
    const n = Number(v);
    if (!missing && v !== "" && Number.isInteger(n)) return `${n} ${plural(n, forms, ctx.lang)}`;
    return missing ? "?" : `${v} ${forms[forms.length - 1]}`;
  }
  const alts = alternatives(spec);
  if (alts.length > 1) return render(you ? alts[1] : alts[0], values, ctx, first);
  if (CASES.includes(spec)) {
    if (missing) return "?";
    if (you) return first ? capital(ctx.you[spec]) : ctx.you[spec];
    return declined(v, spec, ctx);
  }
  return missing ? "?" : String(v);
}

function render(t, values, ctx, first) {
  let out = "";
  let i = 0;
  while (i < t.length) {
    const j = t.indexOf("{", i);
    if (j < 0) {
      out += t.slice(i);
      break;
    }
    out += t.slice(i, j);
    const k = closing(t, j);
    if (k < 0) {
      out += t.slice(j);
      break;
    }
    const inner = t.slice(j + 1, k);
    const c = inner.indexOf(":");
    const name = (c < 0 ? inner : inner.slice(0, c)).trim();
    out += field(name, c < 0 ? null : inner.slice(c + 1), values, ctx, first && out === "");
    i = k + 1;
  }
  return out;
}

/** thousand.words.grammar.render: a catalogue template with its values, agreed and declined.
 *  `cat.you_forms` are the reader's pronouns; `forms` {name: {gen, dat, …}} the names'
 *  cases from the server (grammar.name_forms). */
export function format(template, values, lang = "ru", cat = null, forms = null) {
  const l = langOf(lang);
  const you = (cat && cat.you_forms) || OWN_YOU[l];
  return render(String(template), values || {}, { lang: l, you, forms: forms || {} }, true);
}

/** A seat by its player's name; the reader's own seat is `you` ("Вы"/"You"); a seat
 *  without a name "игрок N"/"seat N". */
export function seatName(seat, names, lang = "ru", reader = null, you = null) {
  if (Array.isArray(seat)) return seat.map((s) => seatName(s, names, lang, reader, you)).join(", ");
  if (typeof seat !== "number") return "—";
  if (reader !== null && reader !== undefined && seat === reader) {
    return (typeof you === "string" && you) || YOU_NAME[langOf(lang)];
  }
  if (names && seat >= 0 && seat < names.length && names[seat]) return names[seat];
  return lang === "ru" ? `игрок ${seat}` : `seat ${seat}`;
}

/** The case forms of the "игрок N"/"seat N" a seat without a name is called. */
export function seatForms(n, lang) {
  if (lang !== "ru") return { [`seat ${n}`]: { poss: `seat ${n}'s` } };
  return {
    [`игрок ${n}`]: {
      gen: `игрока ${n}`, dat: `игроку ${n}`, acc: `игрока ${n}`,
      ins: `игроком ${n}`, loc: `игроке ${n}`, poss: `игрока ${n}`,
    },
  };
}

/** thousand.words.catalogue.move_words: a move in record notation in words (`words` the
 *  catalogue's move_words), cards by their labels. */
export function moveWords(move, lang = "ru", words = {}) {
  const text = String(move ?? "").trim();
  const sp = text.indexOf(" ");
  const word = sp < 0 ? text : text.slice(0, sp);
  const rest = sp < 0 ? "" : text.slice(sp + 1);
  const w = (key) => (typeof words[key] === "string" ? words[key] : undefined);
  const label = (c) => {
    const card = parseCard(c);
    return card ? cardLabel(card, lang) : null;
  };
  if ((word === "give" || word === "discard") && rest) {
    const card = label(rest);
    return card && w(word) ? format(w(word), { card }, lang) : text;
  }
  if (word === "contract" && rest && w("contract")) return format(w("contract"), { value: rest }, lang);
  if ((text === "give" || text === "discard") && w(`${text}_any`)) return w(`${text}_any`);
  if (w(text) && !text.includes("_")) return w(text);
  if (text.endsWith("+")) {
    const card = label(text.slice(0, -1));
    return card && w("declare") ? format(w("declare"), { card }, lang) : text;
  }
  return label(text) ?? text;
}
