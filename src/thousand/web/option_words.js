// An option of the rules in words for the lobby's «Договорённости» (issue 28, 9). The
// explanations come from the server (/api/rules: thousand.words.rules, which the terminal's
// `thousand rules` prints as well), written for a reader who types options: they name the
// values and the other options by their identifiers («none — ничего», «по rounding», «В
// пресетах: classic none, …»). A page shows the same text with every identifier put in
// the words its own controls show, and the presets' values as a short line of its own.

import { presetName } from "./common.js";
import { t, getLang } from "./i18n.js";

function quoted(words) {
  return getLang() === "ru" ? `«${words}»` : `“${words}”`;
}

function escaped(id) {
  return id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The identifier a value has in the explanation's text («none» for null). */
function idOf(v) {
  return v === null || v === undefined ? "none" : String(v);
}

/**
 * The explanation of option `o` for people: the text without its "name — title" head and
 * without its presets line, each value's identifier where it opens its definition («none —
 * ничего», "none: nothing") replaced by the words of the value (`words(o, v)`, as the
 * control shows it), and the other options' identifiers by their titles (`options`: every
 * option of the catalogue). In English an option's one-word name is also an English word
 * («players», «rounding»), so only names with an underscore are replaced there.
 */
export function explainInWords(o, options, words) {
  const lines = String(o.explain ?? "").split("\n");
  if (lines.length && lines[0].startsWith(`${o.name} — `)) lines.shift();
  if (lines.length > 1 && /\bclassic\b/.test(lines[lines.length - 1])) lines.pop();
  let text = lines.join(" ");
  const values = Array.isArray(o.values) && o.values.length ? [...o.values]
    : typeof o.default === "boolean" || String(o.kind ?? "").startsWith("bool") ? [true, false] : [];
  if (o.optional && !values.includes(null)) values.push(null); // «none — торгуются все»
  for (const v of values) {
    const id = idOf(v);
    if (/^-?\d+$/.test(id)) continue; // a number is its own word
    // where a value is defined: a sentence's or a list's first word, or after «или»/"or"
    const at = new RegExp(`(^|[.!?;,]\\s+|\\s(?:или|or)\\s)${escaped(id)}(\\s—\\s|:\\s)`, "g");
    text = text.replace(at, (_, before, sep) => `${before}${quoted(words(o, v))}${sep}`);
  }
  const ru = getLang() === "ru";
  for (const other of options) {
    if (!other.name || !other.title || (!ru && !other.name.includes("_"))) continue;
    text = text.replace(new RegExp(`(?<![\\w«“])${escaped(other.name)}(?![\\w»”])`, "g"), quoted(other.title));
  }
  return text;
}

/** «В пресетах: «классика», «домашние правила» — ничего; «по самоучителю, вчетвером» —
 * очки прикупа»: the
 * presets grouped by the value each gives the option (`value(preset)`), in words. */
export function presetsInWords(o, presets, value, words) {
  const groups = [];
  for (const p of presets) {
    const v = value(p);
    const said = words(o, v);
    const found = groups.find((g) => g.said === said);
    // each name quoted: «по самоучителю, вчетвером» holds a comma of its own
    if (found) found.names.push(quoted(presetName(p.name)));
    else groups.push({ said, names: [quoted(presetName(p.name))] });
  }
  if (!groups.length) return "";
  const list = groups.map((g) => `${g.names.join(", ")} — ${g.said}`).join("; ");
  return t("opt_in_presets", { list });
}
