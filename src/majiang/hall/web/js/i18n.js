// The display language: 双语 both (the default: Chinese and English side by side), 中文 or English.
// Kept in localStorage (majiang.lang).  Labels made with bi() are <span class="zh"> + <span
// class="en">; the stylesheet hides the other language's spans (body[data-lang]).  Fan names stay in
// both languages everywhere (they are table cells, never hidden).  t(zh, en) picks a plain string.

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
