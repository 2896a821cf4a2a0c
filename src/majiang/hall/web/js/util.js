// Small DOM helpers shared by every page (no framework).

import { getLang, msg, tr } from "./i18n.js";

// Elements with attributes from the catalogue (h's i18n): set again when the language changes, attached
// to the page or not yet (a card drawn before the switch and shown after it).
const translated = new Set();
document.addEventListener("mj-lang", () => {
  for (const ref of translated) {
    const el = ref.deref();
    if (!el) translated.delete(ref);
    else for (const [a, key] of Object.entries(el.i18nAttrs)) el.setAttribute(a, tr(key));
  }
});

/** h("div.card#id", {attrs, on: {click}, i18n: {placeholder: key}}, ...children) → Element */
export function h(tag, attrs, ...children) {
  const m = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(tag);
  const el = document.createElement((m && m[1]) || "div");
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "i18n") { // {placeholder: key, title: key}: catalogue entries, redone when the language changes
      for (const [a, key] of Object.entries(v)) el.setAttribute(a, tr(key));
      translated.add(new WeakRef(el));
      el.i18nAttrs = v;
    }
    else if (k === "class") el.className += (el.className ? " " : "") + v;
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A bilingual label: Chinese first, English after (smaller). */
export function bi(zh, en, cls = "") {
  return h("span.bi" + (cls ? "." + cls : ""), h("span.zh", zh), " ", h("span.en", en));
}

/** Catalogue entry `key` (lang/*.js) as a bilingual label (bi): the stylesheet shows the chosen language. */
export function L(key, vars, cls = "") {
  const m = msg(key, vars);
  return bi(m.zh, m.en, cls);
}

/** A room's name in both languages: the server's name_zh / name_en ("新手场 Beginners" split). */
export function roomNames(r) {
  if (r.name_zh && r.name_en) return [r.name_zh, r.name_en];
  const m = /^(\S*[\u3400-\u9fff]\S*)\s+(.+)$/.exec(r.name || "");
  return m ? [m[1], m[2]] : [r.name, r.name];
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

let toastBox = null;
/** A message in words at the top right; kind: info | error | ok. */
export function toast(text, kind = "info", ms = 4000) {
  if (!toastBox) {
    toastBox = h("div.toasts", { role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  const t = h("div.toast." + kind, text);
  toastBox.append(t);
  setTimeout(() => t.classList.add("gone"), ms);
  setTimeout(() => t.remove(), ms + 400);
  return t;
}

export function fmtInt(n) {
  if (n === null || n === undefined) return "–";
  return Number(n).toLocaleString("en-US");
}

export function signed(n) {
  if (n === null || n === undefined) return "–";
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + fmtInt(Math.abs(n));
}

export function pct(x) {
  return (100 * (x || 0)).toFixed(1) + "%";
}

/** The locale of dates and times: the chosen language's (the browser's when both). */
function locale() {
  const lang = getLang();
  return lang === "zh" ? "zh-CN" : lang === "en" ? "en-GB" : [];
}

export function timeText(at) {
  const d = typeof at === "number" ? new Date(at * 1000) : new Date(at);
  return d.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });
}

export function dateText(at) {
  const d = new Date(at);
  return d.toLocaleString(locale(), { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

export const WIND_ZH = { E: "东", S: "南", W: "西", N: "北" };
export const WIND_EN = { E: "East", S: "South", W: "West", N: "North" };

/** Relative seat names from `me`: 0 self, 1 下家, 2 对家, 3 上家. */
export const REL_ZH = ["自家", "下家", "对家", "上家"];
export const REL_EN = ["You", "Right", "Across", "Left"];

/**
 * An in-page confirmation (not the browser's native confirm(), which a phone shows as a system popup with
 * the page's address): resolves true for OK, false for Cancel, Escape or a tap outside.
 */
export function confirmDialog(zh, en, okZh = msg("ok").zh, okEn = msg("ok").en) {
  document.getElementById("confirm-dialog")?.remove();
  return new Promise((resolve) => {
    const done = (v) => { overlay.remove(); document.removeEventListener("keydown", onKey); resolve(v); };
    const onKey = (e) => { if (e.key === "Escape") done(false); };
    const ok = h("button.btn.primary#confirm-ok", { on: { click: () => done(true) } }, bi(okZh, okEn));
    const overlay = h("div.confirm-overlay#confirm-dialog", { role: "dialog", "aria-modal": "true",
      on: { click: (e) => { if (e.target === overlay) done(false); } } },
      h("div.confirm-box",
        h("p", h("span.zh", zh)), h("p", h("span.en", en)),
        h("div.buttons", h("button.btn#confirm-cancel", { on: { click: () => done(false) } }, L("cancel")), ok)));
    document.addEventListener("keydown", onKey);
    document.body.append(overlay);
    ok.focus();
  });
}
