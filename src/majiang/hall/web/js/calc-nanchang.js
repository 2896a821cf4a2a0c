// The calculator's Nanchang form (rulesets whose descriptor says form "nanchang"): a whole table —
// the jing indicator, the four hands, dealer, winner and method; the result is the settlement
// (胡 items, multiplier, every seat's deltas by part).

import { bi, h, L, signed, WIND_EN, WIND_ZH } from "./util.js";
import { msg, tr } from "./i18n.js";
import { ALL_KINDS, sortTiles, tileEl } from "./tiles.js";
import { meldEl } from "./board.js";
import { MODES, meldJson, mode, needConcealed } from "./calc-common.js";

const NC_MODES = [...MODES, mode("jing")];
const METHODS = ["self_drawn", "discard", "kong_replacement", "robbed_kong", "heavenly", "earthly"];
const WITH_DISCARDER = ["discard", "robbed_kong", "earthly"];
const HU_EN = {
  平胡: "Basic hand", 碰碰胡: "All pungs", 小七对: "Seven pairs", 十三烂: "Thirteen rotten",
  七星十三烂: "Seven-star thirteen rotten", 七星七对: "Seven-star seven pairs", 德国: "German (no jing as wild)",
  德中德: "German among Germans", 德国七对加倍: "German seven pairs extra double", 精钓: "Jing single wait",
  杠开: "Win on a kong replacement", 天胡: "Heavenly hand", 地胡: "Earthly hand",
};
const PARTS = new Set(["win", "kong", "jing", "bawang", "chongguan"]);

const NC_FILL = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"];
const NC_EXAMPLES = [
  {
    zh: "杠开 精钓", en: "Kong replacement, jing single wait",
    s: {
      jing: "5p", dealer: 0, winner: 2, win: "2s", method: "kong_replacement", discarder: null, active: 2,
      hands: [
        { concealed: NC_FILL.slice(), melds: [] }, { concealed: NC_FILL.slice(), melds: [] },
        {
          concealed: ["5p"], melds: [{ kind: "chow", tiles: ["1m", "2m", "3m"], claimed: 0 },
            { kind: "pung", tiles: ["7s", "7s", "7s"], from: 1 }, { kind: "chow", tiles: ["E", "S", "W"], claimed: 2 },
            { kind: "kong", tiles: ["9p", "9p", "9p", "9p"], from: 2 }],
        },
        { concealed: NC_FILL.slice(), melds: [] }],
    },
  },
];

const windOf = (s) => ({ zh: WIND_ZH["ESWN"[s]], en: WIND_EN["ESWN"[s]] });
const seatMsg = (s) => msg("nc.seat", { wind: windOf(s), n: s });
const seatName = (s) => tr("nc.seat", { wind: windOf(s), n: s }); // plain (an <option>)
const seatLabel = (s) => L("nc.seat", { wind: windOf(s), n: s });

function fresh() {
  return {
    jing: null, dealer: 0, winner: 0, win: null, method: "self_drawn", discarder: null, active: 0,
    hands: [0, 1, 2, 3].map(() => ({ concealed: [], melds: [] })), dianpao: "three",
  };
}

export function createForm() {
  let nc = fresh();
  const form = {
    modes: NC_MODES,
    examples: NC_EXAMPLES.map((ex, i) => ({ id: `nc${i}`, zh: ex.zh, en: ex.en })),

    reset() {
      nc = fresh();
    },
    loadExample(id) {
      nc = { ...fresh(), ...structuredClone(NC_EXAMPLES[+id.slice(2)].s) };
    },
    target: () => nc.hands[nc.active],
    concealed: () => nc.hands[nc.active].concealed,
    sortConcealed(sort) {
      const tgt = nc.hands[nc.active];
      tgt.concealed = sort(tgt.concealed);
    },
    win: () => nc.win,
    setWin(t) {
      nc.win = t;
    },
    pick(mode, t) {
      if (mode !== "jing") return false;
      nc.jing = t;
      return true;
    },
    usedTiles(add) {
      for (const hd of nc.hands) {
        hd.concealed.forEach(add);
        hd.melds.forEach((m) => m.tiles.forEach(add));
      }
      add(nc.win);
      add(nc.jing);
    },
    complete() {
      if (!nc.jing) return false;
      return nc.hands.every((hd) => hd.concealed.length === needConcealed(hd, false))
        && (nc.winner === null || !!nc.win);
    },
    missing(box) {
      const missing = [];
      if (!nc.jing) missing.push(msg("nc.missing_jing"));
      nc.hands.forEach((hd, s) => {
        const need = needConcealed(hd, false) - hd.concealed.length;
        if (need > 0) missing.push(msg("nc.missing_tiles", { seat: seatMsg(s), n: need }));
      });
      if (nc.winner !== null && !nc.win) missing.push(msg("nc.missing_win"));
      box.append(h("p.muted", L("nc.missing", { what: { zh: missing.map((x) => x.zh).join("，"), en: missing.map((x) => x.en).join(", ") } })));
    },
    handJson(rules) {
      const d = {
        rules, jing_indicator: nc.jing, dealer: nc.dealer, winner: nc.winner,
        win_tile: nc.winner === null ? null : nc.win, method: nc.method,
        discarder: WITH_DISCARDER.includes(nc.method) ? nc.discarder : null,
        hands: nc.hands.map((hd) => ({ concealed: hd.concealed.slice(), melds: hd.melds.map(meldJson) })),
      };
      if (nc.dianpao !== "three") d.options = { dianpao_pay: nc.dianpao };
      return d;
    },
    show(r, box) {
      const hu = r.hu || [];
      box.append(
        h("div.total-line",
          h("span.total#calc-total", { dataset: { total: r.multiplier ?? "" } }, r.multiplier !== undefined ? `×${r.multiplier}` : "–",
            h("small", L("calc_nanchang.multiplier")))),
        h("table.fans#calc-fans", h("thead", h("tr", h("th", h("span.zh", msg("nc.hu").zh)), h("th", h("span.en", msg("nc.hu").en)))),
          h("tbody", hu.length ? hu.map((x) => h("tr.fan", h("td.zh", { dataset: { langFree: "" } }, x), h("td", { dataset: { langFree: "" } }, HU_EN[x] || ""))) : h("tr", h("td", { colSpan: 2 }, L("calc_nanchang.no_winner"))))),
        h("table.fans#nc-deltas",
          h("thead", h("tr", h("th", L("player.seat")), h("th.num", L("table.fan_total")),
            ...Object.keys(r.parts || {}).map((k) => h("th.num", PARTS.has(k) ? L(`nc.part.${k}`) : k)))),
          h("tbody", (r.deltas || []).map((d, s) => h("tr", h("td", seatLabel(s), s === nc.winner ? [" ", L("nc.won")] : null),
            h(`td.num.${d >= 0 ? "pos" : "neg"}`, signed(d)),
            ...Object.values(r.parts || {}).map((p) => h("td.num", signed(p[s]))))))));
    },
    controls: (changed) => controls(nc, changed, () => fillOthers(changed)),
    handTitle: () => seatLabel(nc.active),
    showWin: () => nc.active === nc.winner,
    handExtra: () => (nc.jing ? h("div.small", L("calc_nanchang.indicator"), tileEl(nc.jing, { size: "sm" })) : null),
    options: (changed) => overview(nc, changed),
  };

  function fillOthers(changed) {
    const c = {};
    form.usedTiles((t) => {
      if (t) c[t] = (c[t] || 0) + 1;
    });
    const pool = [];
    for (const t of ALL_KINDS) for (let k = c[t] || 0; k < 4; k++) pool.push(t);
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    nc.hands.forEach((hd, s) => {
      if (s === nc.winner) return;
      const need = needConcealed(hd, false) - hd.concealed.length;
      for (let k = 0; k < need && pool.length; k++) hd.concealed.push(pool.pop());
      hd.concealed = sortTiles(hd.concealed);
    });
    changed();
  }

  return form;
}

function controls(nc, changed, fillOthers) {
  const sel = (id, opts, value, onChange) => {
    const s = h(`select#${id}`, opts.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label)));
    s.addEventListener("change", () => onChange(s.value));
    return s;
  };
  const seatOpts = [0, 1, 2, 3].map((s) => [s, seatName(s)]);
  return h("div.card.nc-controls",
    h("h3", L("calc_nanchang.nanchang_table")),
    h("div.grid2",
      h("label", L("board.dealer_title"), sel("nc-dealer", seatOpts, nc.dealer, (v) => { nc.dealer = +v; changed(); })),
      h("label", L("calc_nanchang.winner"), sel("nc-winner", [...seatOpts, ["", tr("nc.draw")]], nc.winner ?? "", (v) => {
        nc.winner = v === "" ? null : +v;
        changed();
      })),
      h("label", L("calc_nanchang.method"), sel("nc-method", METHODS.map((v) => [v, tr(`nc.method.${v}`)]), nc.method, (v) => {
        nc.method = v;
        if (WITH_DISCARDER.includes(v) && nc.discarder === null) nc.discarder = (nc.winner + 1) % 4;
        changed();
      })),
      WITH_DISCARDER.includes(nc.method)
        ? h("label", L("calc_nanchang.discarder"), sel("nc-discarder", seatOpts, nc.discarder ?? 0, (v) => { nc.discarder = +v; changed(); }))
        : null,
      h("label", L("calc_nanchang.pays"), sel("nc-dianpao", [["three", tr("nc.pay.three")], ["one", tr("nc.pay.one")]], nc.dianpao, (v) => {
        nc.dianpao = v;
        changed();
      }))),
    h("div.seg#nc-seats", [0, 1, 2, 3].map((s) => h(`button.seg-btn${nc.active === s ? ".on" : ""}`, {
      dataset: { seat: s },
      on: {
        click: () => {
          nc.active = s;
          changed();
        },
      },
    }, L("nc.seat_short", { wind: windOf(s) }), ` ${s}`, s === nc.winner ? [" ", L("nc.won")] : null,
    ` (${nc.hands[s].concealed.length + nc.hands[s].melds.length * 3})`))),
    h("button.btn.small#nc-fill", { on: { click: fillOthers } }, L("calc_nanchang.fill_the_other_seats_at_random")));
}

function overview(nc, changed) {
  return h("div.card.nc-overview#nc-overview", h("h3", L("calc_nanchang.all_four_hands")),
    nc.hands.map((hd, s) => h(`div.nc-seat${s === nc.active ? ".on" : ""}`, {
      dataset: { seat: s },
      on: {
        click: () => {
          nc.active = s;
          changed();
        },
      },
    },
    h("span.nc-label", L("nc.seat_short", { wind: windOf(s) }), s === nc.dealer ? h("span.badge", L("board.dealer")) : null,
      s === nc.winner ? h("span.badge.ok", L("nc.won")) : null),
    h("div.nc-tiles", hd.melds.map((m) => meldEl(m, "xs")), hd.concealed.map((t) => tileEl(t, { size: "xs" })),
      s === nc.winner && nc.win ? h("span.nc-win", tileEl(nc.win, { size: "xs" })) : null))));
}
