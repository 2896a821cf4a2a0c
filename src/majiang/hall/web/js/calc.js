// The fan calculator (这是什么和? What hand is this?): build a hand by clicking a tile palette,
// POST it to /api/fan (the hand-json format of shared/spec/hand-json.md) and show the result.  The
// page is the same for every ruleset; what a hand is and how a result reads are the ruleset's form,
// chosen by its descriptor (GET /api/rulesets, `form`): calc-mcr.js (the fans with the sets each was
// counted from) or calc-nanchang.js (a whole table: 胡 items, multiplier, deltas).

import { api } from "./api.js";
import { bi, clear, h, L } from "./util.js";
import { pair, tr } from "./i18n.js";
import { ALL_KINDS, HONORS, nextTile, sortTiles, tileEl, tileEn, tileName, tileZh } from "./tiles.js";
import { meldEl } from "./board.js";
import { needConcealed } from "./calc-common.js";
import { createForm as mcrForm } from "./calc-mcr.js";
import { createForm as nanchangForm } from "./calc-nanchang.js";
import { defaultRuleset, rulesetInfo, rulesets } from "./rulesets.js";

/** The calculator forms by the descriptor's `form`. */
const FORMS = { mcr: mcrForm, nanchang: nanchangForm };
const DEFAULT_FORM = "mcr";
const FROM = [1, 2, 3];

/** The server's reason for refusing a hand (POST /api/fan's 422 detail) in words, both languages. */
/** A tile's name as {zh, en} (a catalogue value). */
function tileBoth(t) {
  return { zh: tileZh(t), en: tileEn(t) };
}

export function readableError(text, body) {
  const msg = String(text || "");
  const n = (body.hand || []).length + 3 * (body.melds || []).length;
  if (/win_tile'? is missing/.test(msg) || /winning tile/.test(msg) && /missing/.test(msg)) {
    return pair("calc.err.no_win_tile", { n });
  }
  let m = /wrong tile count.*got (\d+)/.exec(msg);
  if (m) {
    return pair("calc.err.count", { n });
  }
  if (/not a winning hand/.test(msg)) {
    const w = body.win_tile;
    return pair(w ? "calc.err.not_win_tile" : "calc.err.not_win", { n: n + 1, tile: w ? { zh: tileZh(w), en: tileEn(w) } : "" });
  }
  m = /^([^:]+): (.*)$/.exec(msg);
  return pair("calc.err.other", { error: m ? m[2] : msg });
}

export function mount(root) {
  let rules = sessionStorage.getItem("majiang.calc.rules") || defaultRuleset();
  let mode = "hand";
  const forms = {}; // one per form kind, so a hand survives switching between rulesets that share it
  let form = formOf(rules);
  let lastSent = null;
  let timer = null;

  function formOf(name) {
    const kind = (rulesetInfo(name) || {}).form || DEFAULT_FORM;
    if (!forms[kind]) forms[kind] = (FORMS[kind] || FORMS[DEFAULT_FORM])();
    return forms[kind];
  }

  const left = h("div.calc-left");
  const right = h("div.calc-right");
  const resultBox = h("div.calc-result#calc-result", { "aria-live": "polite" });
  root.append(h("section.calc-page",
    h("div.page-head",
      h("h1", L("calc.title")),
      h("p.small", L("calc.click_tiles_to_build_a_winning_h"))),
    h("div.calc-grid", left, h("div.calc-rightcol", right, resultBox))));

  // ---- helpers -------------------------------------------------------------------------------
  function used() {
    const c = {};
    form.usedTiles((t) => {
      if (t) c[t] = (c[t] || 0) + 1;
    });
    return c;
  }

  function pick(t) {
    const c = used();
    const room = (k) => (c[t] || 0) + k <= 4;
    const tgt = form.target();
    if (mode === "hand") {
      if (!room(1)) return flash(tr("calc.four_used", { tile: tileBoth(t) }));
      const cap = needConcealed(tgt, false);
      if (form.concealed().length >= cap) return flash(tr("calc.hand_full", { n: cap }));
      form.concealed().push(t);
      form.sortConcealed(sortTiles);
    } else if (mode === "win") {
      form.setWin(t);
      if ((used()[t] || 0) > 4) {
        form.setWin(null);
        return flash(tr("calc.four_used", { tile: tileBoth(t) }));
      }
    } else if (form.pick(mode, t)) {
      // a mode of the form's own (Nanchang's jing indicator)
    } else {
      if (tgt.melds.length >= 4) return flash(tr("calc.four_melds"));
      let meld;
      if (mode === "chow") {
        const a = nextTile(t, 1);
        const b = nextTile(t, 2);
        if (!a || !b) return flash(tr("calc.chow_lowest"));
        if ((c[t] || 0) >= 4 || (c[a] || 0) >= 4 || (c[b] || 0) >= 4) return flash(tr("calc.chow_short"));
        meld = { kind: "chow", tiles: [t, a, b], claimed: 0, concealed: false };
      } else if (mode === "pung") {
        if (!room(3)) return flash(tr("calc.pung_short", { tile: tileBoth(t) }));
        meld = { kind: "pung", tiles: [t, t, t], from: 1, concealed: false };
      } else {
        if (!room(4)) return flash(tr("calc.kong_short", { tile: tileBoth(t) }));
        meld = mode === "kong" ? { kind: "kong", tiles: [t, t, t, t], from: 1, concealed: false }
          : { kind: "kong", tiles: [t, t, t, t], concealed: true };
      }
      tgt.melds.push(meld);
      const cap = needConcealed(tgt, false);
      const conc = form.concealed();
      if (conc.length > cap) conc.splice(cap);
    }
    changed();
  }

  let flashEl = null;
  function flash(text) {
    if (flashEl) flashEl.textContent = text;
  }

  function changed() {
    flash("");
    sessionStorage.setItem("majiang.calc.rules", rules);
    drawLeft();
    drawRight();
    clearTimeout(timer);
    if (form.complete()) timer = setTimeout(calculate, 120);
    else showIncomplete();
  }

  function showIncomplete() {
    clear(resultBox);
    form.missing(resultBox);
  }

  async function calculate() {
    const body = form.handJson(rules);
    const key = JSON.stringify(body);
    lastSent = key;
    clear(resultBox);
    resultBox.append(h("p.muted", L("calc.calculating")));
    let r;
    try {
      r = await api("/api/fan", { method: "POST", body, auth: false });
    } catch (e) {
      r = { error: e.message };
    }
    if (lastSent !== key) return;
    clear(resultBox);
    if (r.error) {
      const [zh, en] = readableError(r.error, body);
      resultBox.append(h("div.calc-error#calc-error", { role: "alert", title: r.error }, bi(zh, en)));
      return;
    }
    form.show(r, resultBox);
  }

  // ---- drawing -------------------------------------------------------------------------------
  function drawLeft() {
    clear(left);
    const rulesRow = h("div.seg#calc-rules", rulesets().map((r) => h(`button.seg-btn${rules === r.name ? ".on" : ""}`, {
      dataset: { rules: r.name },
      on: {
        click: () => {
          rules = r.name;
          form = formOf(rules);
          if (!form.modes.some(([v]) => v === mode)) mode = "hand";
          changed();
        },
      },
    }, bi(r.zh, r.en))));
    left.append(h("div.card", h("h3", L("calc.rules")), rulesRow));
    const controls = form.controls(changed);
    if (controls) left.append(controls);
    left.append(h("div.card",
      h("h3", L("calc.add_to")),
      h("div.seg.modes#calc-modes", form.modes.map(([v, zh, en]) => h(`button.seg-btn${mode === v ? ".on" : ""}`, {
        dataset: { mode: v },
        on: {
          click: () => {
            mode = v;
            drawLeft();
          },
        },
      }, bi(zh, en)))),
      h("p.small.muted", L(`calc.mode.${mode}`)),
      palette(),
      flashEl = h("p.flash#calc-flash", { role: "status" })));
    left.append(h("div.card", h("h3", L("calc.examples")),
      h("div.examples", form.examples.map((ex) => h("button.btn.small", {
        dataset: { example: ex.id },
        on: {
          click: () => {
            form.loadExample(ex.id);
            changed();
          },
        },
      }, bi(ex.zh, ex.en))))));
  }

  function palette() {
    const c = used();
    return h("div.palette#palette", ["m", "p", "s", "z"].map((suit) => h("div.prow",
      h("span.plabel", L(`calc.suit.${suit}`)),
      (suit === "z" ? HONORS : ALL_KINDS.filter((t) => t[1] === suit)).map((t) => {
        const n = c[t] || 0;
        const b = h(`button.pal${n >= 4 ? ".full" : ""}`, {
          dataset: { tile: t },
          title: `${tileName(t)}${n ? ` · ${tr("calc.used", { n })}` : ""}`,
          on: { click: () => pick(t) },
        }, tileEl(t, { size: "md" }), n ? h("span.used", String(n)) : null);
        return b;
      }))));
  }

  function drawRight() {
    clear(right);
    const tgt = form.target();
    const conc = form.concealed();
    const win = form.win();
    const meldBox = h("div.calc-melds#calc-melds", tgt.melds.map((m, i) => {
      const el = h("div.calc-meld", meldEl(m, "md"));
      if (m.kind === "chow") {
        el.append(h("div.meld-opt", L("calc.claimed"), m.tiles.map((t, k) => h(`button.mini${(m.claimed ?? 0) === k ? ".on" : ""}`, {
          on: { click: () => { m.claimed = k; changed(); } },
        }, bi(tileZh(t), tileEn(t))))));
      } else if (!m.concealed) {
        el.append(h("div.meld-opt", L("calc.from"), FROM.map((v) => h(`button.mini${m.from === v ? ".on" : ""}`, {
          on: { click: () => { m.from = v; changed(); } },
        }, L(`from.${v}`)))));
      }
      el.append(h("button.mini.x", { title: tr("calc.remove"), on: { click: () => { tgt.melds.splice(i, 1); changed(); } } }, "✕"));
      return el;
    }));
    const concBox = h("div.calc-concealed#calc-concealed", conc.map((t, i) => {
      const el = tileEl(t, { size: "lg", title: `${tileName(t)} — ${tr("calc.click_remove")}` });
      el.classList.add("removable");
      el.addEventListener("click", () => {
        conc.splice(i, 1);
        changed();
      });
      return el;
    }));
    const winBox = h("div.calc-win#calc-win", win
      ? (() => {
        const el = tileEl(win, { size: "lg", title: `${tileName(win)} — ${tr("calc.click_remove")}` });
        el.classList.add("removable");
        el.addEventListener("click", () => {
          form.setWin(null);
          changed();
        });
        return el;
      })()
      : h("span.placeholder", L("calc.win_tile_q")));
    right.append(h("div.card.calc-hand",
      h("h3", form.handTitle(),
        h("button.btn.small.ghost#calc-clear", {
          on: {
            click: () => {
              form.reset();
              changed();
            },
          },
        }, L("calc.clear"))),
      h("div.calc-handrow", meldBox, concBox, form.showWin() ? h("div.winwrap", h("span.small", L("calc.win")), winBox) : null),
      form.handExtra()));
    right.append(form.options(changed));
    right.append(h("div.row",
      h("button.btn.primary.big#calc-go", { on: { click: calculate } }, L("calc.calculate")),
      h("details.json", h("summary", { dataset: { langFree: "" } }, "hand-json"), h("pre#calc-json", JSON.stringify(form.handJson(rules), null, 1)))));
  }

  changed();
  return () => clearTimeout(timer);
}
