// The display language: 双语 both (the default: Chinese and English side by side), 中文 or English.
// Kept in localStorage (majiang.lang).  Every visible string is in the catalogues lang/zh.js and
// lang/en.js (key → string, {name} placeholders): tr(key, vars) is the plain string in the chosen
// language ("中文 · English" when both), msg(key, vars) both of them, and util.js's L(key, vars) a label
// of <span class="zh"> + <span class="en"> that the stylesheet shows or hides (body[data-lang]), so a
// switch needs no redraw.  Names that are the same in every language (tile faces, fan names, player
// names) sit in elements marked data-lang-free (docs/web-client.md, Languages).  bi(zh, en) and
// t(zh, en) are the older inline forms.

import ZH from "./lang/zh.js";
import EN from "./lang/en.js";

const KEY = "majiang.lang";
export const LANGS = [["both", "中/EN", "中文 + English"], ["zh", "中文", "只显示中文 Chinese only"],
  ["en", "EN", "English only 只显示英文"]];

let lang = "both";
try {
  const saved = localStorage.getItem(KEY);
  if (LANGS.some(([v]) => v === saved)) lang = saved;
} catch { /* private mode */ }

export function getLang() {
  return lang;
}

export function setLang(v) {
  lang = LANGS.some(([x]) => x === v) ? v : "both";
  try {
    localStorage.setItem(KEY, lang);
  } catch { /* private mode: for this page only */ }
  applyLang();
}

/** The next language of the header's toggle: 中/EN → 中文 → English → 中/EN. */
export function nextLang() {
  const i = LANGS.findIndex(([v]) => v === lang);
  return LANGS[(i + 1) % LANGS.length][0];
}

export function applyLang() {
  document.documentElement.lang = lang === "en" ? "en" : "zh-Hans";
  document.body.dataset.lang = lang;
  document.dispatchEvent(new CustomEvent("mj-lang", { detail: lang }));
}

/** A plain string in the chosen language ("中文 · English" when both). */
export function t(zh, en) {
  if (lang === "zh") return zh;
  if (lang === "en") return en;
  return `${zh} · ${en}`;
}

function fill(s, vars, which) {
  const value = (v) => (v !== null && typeof v === "object" ? v[which] : v);
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(value(vars[k])) : m)) : s;
}

/** Both languages of catalogue entry `key`, its {placeholders} filled from `vars` (a value may be
 * {zh, en}: each language gets its own, e.g. a tile's or an item's name). */
export function msg(key, vars) {
  if (!(key in ZH) || !(key in EN)) console.error(`i18n: no catalogue entry ${key}`);
  return { zh: fill(ZH[key] ?? key, vars, "zh"), en: fill(EN[key] ?? key, vars, "en") };
}

/** Catalogue entry `key` as a plain string in the chosen language ("中文 · English" when both). */
export function tr(key, vars) {
  const m = msg(key, vars);
  return t(m.zh, m.en);
}

/** Catalogue entry `key` as [zh, en] (for code that keeps both, e.g. bi(...pair(key))). */
export function pair(key, vars) {
  const m = msg(key, vars);
  return [m.zh, m.en];
}
