// The fan calculator (这是什么和? What hand is this?): build a hand by clicking a tile palette,
// POST it to /api/fan (the hand-json format of shared/spec/hand-json.md) and show the fans with the
// sets each was counted from.  A Nanchang mode settles a whole table (胡 items, multiplier, deltas).

import { api } from "./api.js";
import { bi, clear, h, signed } from "./util.js";
import { ALL_KINDS, HONORS, nextTile, sortTiles, tileEl, tileName, tileZh } from "./tiles.js";
import { meldEl } from "./board.js";

const MODES = [
  ["hand", "手牌", "Concealed"],
  ["chow", "吃", "Chow"],
  ["pung", "碰", "Pung"],
  ["kong", "明杠", "Kong"],
  ["ckong", "暗杠", "Concealed kong"],
  ["win", "和张", "Winning tile"],
];
const NC_MODES = [...MODES, ["jing", "精牌", "Jing indicator"]];
const FROM = [[1, "上家", "left"], [2, "对家", "across"], [3, "下家", "right"]];
const WINDS = [["E", "东", "East"], ["S", "南", "South"], ["W", "西", "West"], ["N", "北", "North"]];
const METHODS = [["self_drawn", "自摸", "self-drawn"], ["discard", "点炮", "on a discard"],
  ["kong_replacement", "杠开", "kong replacement"], ["robbed_kong", "抢杠", "robbing a kong"],
  ["heavenly", "天胡", "heavenly"], ["earthly", "地胡", "earthly"]];
const HU_EN = {
  平胡: "Basic hand", 碰碰胡: "All pungs", 小七对: "Seven pairs", 十三烂: "Thirteen rotten",
  七星十三烂: "Seven-star thirteen rotten", 七星七对: "Seven-star seven pairs", 德国: "German (no jing as wild)",
  德中德: "German among Germans", 德国七对加倍: "German seven pairs extra double", 精钓: "Jing single wait",
  杠开: "Win on a kong replacement", 天胡: "Heavenly hand", 地胡: "Earthly hand",
};
const PART_ZH = { win: "胡牌 win", kong: "杠 kongs", jing: "精 jing", bawang: "霸王精", chongguan: "冲关" };

const EXAMPLES = [
  {
    zh: "五门齐", en: "All Types (the hand-json example)",
    s: {
      melds: [{ kind: "chow", tiles: ["1m", "2m", "3m"], claimed: 0 }, { kind: "pung", tiles: ["E", "E", "E"], from: 2 },
        { kind: "kong", tiles: ["9s", "9s", "9s", "9s"], concealed: true }],
      hand: ["4p", "5p", "6p", "C"], win: "C", seat_wind: "E", prevalent_wind: "S",
    },
  },
  {
    zh: "清一色", en: "Full Flush",
    s: { melds: [], hand: ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "5p", "6p", "7p", "8p", "9p", "9p"], win: "9p" },
  },
  {
    zh: "七对", en: "Seven Pairs",
    s: { melds: [], hand: ["2m", "2m", "5m", "5m", "3p", "3p", "8p", "8p", "4s", "4s", "W", "W", "C"], win: "C",
      flags: { self_drawn: true } },
  },
  {
    zh: "十三幺", en: "Thirteen Orphans",
    s: { melds: [], hand: ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"], win: "1m" },
  },
];

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

function freshMcr() {
  return {
    melds: [], hand: [], win: null, seat_wind: "E", prevalent_wind: "E", flowers: 0,
    flags: { self_drawn: false, fourth_tile: false, kong: false, last_tile: false },
  };
}

function freshNc() {
  return {
    jing: null, dealer: 0, winner: 0, win: null, method: "self_drawn", discarder: null, active: 0,
    hands: [0, 1, 2, 3].map(() => ({ concealed: [], melds: [] })), dianpao: "three",
  };
}

export function mount(root) {
  let rules = sessionStorage.getItem("majiang.calc.rules") || "gb";
  let mode = "hand";
  let mcr = freshMcr();
  let nc = freshNc();
  let lastSent = null;
  let timer = null;

  const left = h("div.calc-left");
  const right = h("div.calc-right");
  const resultBox = h("div.calc-result#calc-result", { "aria-live": "polite" });
  root.append(h("section.calc-page",
    h("div.page-head",
      h("h1", h("span.zh", "这是什么和？"), " ", h("span.en", "What hand is this?")),
      h("p.small", "点选牌面组成一手和牌，立即算番 · Click tiles to build a winning hand; the fans appear with where each was counted from")),
    h("div.calc-grid", left, h("div.calc-rightcol", right, resultBox))));

  // ---- helpers -------------------------------------------------------------------------------
  function used() {
    const c = {};
    const add = (t) => {
      if (t) c[t] = (c[t] || 0) + 1;
    };
    if (rules === "nanchang") {
      for (const hd of nc.hands) {
        hd.concealed.forEach(add);
        hd.melds.forEach((m) => m.tiles.forEach(add));
      }
      add(nc.win);
      add(nc.jing);
    } else {
      mcr.hand.forEach(add);
      mcr.melds.forEach((m) => m.tiles.forEach(add));
      add(mcr.win);
    }
    return c;
  }

  function target() {
    return rules === "nanchang" ? nc.hands[nc.active] : mcr;
  }

  function needConcealed(tgt, withWin) {
    return 13 - 3 * tgt.melds.length + (withWin ? 1 : 0);
  }

  function pick(t) {
    const c = used();
    const room = (k) => (c[t] || 0) + k <= 4;
    const tgt = target();
    const concealedOf = (x) => (rules === "nanchang" ? x.concealed : x.hand);
    if (mode === "hand") {
      if (!room(1)) return flash(`${tileName(t)}：已经用了四张 · all four copies are used`);
      const cap = needConcealed(tgt, false);
      if (concealedOf(tgt).length >= cap) return flash(`手牌已满 (${cap}) · the concealed hand is full; pick the winning tile in 和张 mode`);
      concealedOf(tgt).push(t);
      if (rules === "nanchang") tgt.concealed = sortTiles(tgt.concealed);
      else mcr.hand = sortTiles(mcr.hand);
    } else if (mode === "win") {
      if (rules === "nanchang") nc.win = t;
      else mcr.win = t;
      if ((used()[t] || 0) > 4) {
        if (rules === "nanchang") nc.win = null;
        else mcr.win = null;
        return flash(`${tileName(t)}：已经用了四张 · all four copies are used`);
      }
    } else if (mode === "jing") {
      nc.jing = t;
    } else {
      if (tgt.melds.length >= 4) return flash("最多四组副露 · at most four melds");
      let meld;
      if (mode === "chow") {
        const a = nextTile(t, 1);
        const b = nextTile(t, 2);
        if (!a || !b) return flash("吃：点顺子的第一张 (1–7) · chow: click the lowest tile (1–7) of the run");
        if ((c[t] || 0) >= 4 || (c[a] || 0) >= 4 || (c[b] || 0) >= 4) return flash("这组顺子的牌不够了 · not enough copies left");
        meld = { kind: "chow", tiles: [t, a, b], claimed: 0, concealed: false };
      } else if (mode === "pung") {
        if (!room(3)) return flash(`${tileName(t)}：不够三张 · not enough copies for a pung`);
        meld = { kind: "pung", tiles: [t, t, t], from: 1, concealed: false };
      } else {
        if (!room(4)) return flash(`${tileName(t)}：不够四张 · not enough copies for a kong`);
        meld = mode === "kong" ? { kind: "kong", tiles: [t, t, t, t], from: 1, concealed: false }
          : { kind: "kong", tiles: [t, t, t, t], concealed: true };
      }
      tgt.melds.push(meld);
      const cap = needConcealed(tgt, false);
      const conc = concealedOf(tgt);
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
    if (complete()) timer = setTimeout(calculate, 120);
    else showIncomplete();
  }

  function complete() {
    if (rules === "nanchang") {
      if (!nc.jing) return false;
      return nc.hands.every((hd) => hd.concealed.length === needConcealed(hd, false))
        && (nc.winner === null || !!nc.win);
    }
    return mcr.win && mcr.hand.length === needConcealed(mcr, false);
  }

  function showIncomplete() {
    clear(resultBox);
    if (rules === "nanchang") {
      const missing = [];
      if (!nc.jing) missing.push("精牌 jing indicator");
      nc.hands.forEach((hd, s) => {
        const need = needConcealed(hd, false) - hd.concealed.length;
        if (need > 0) missing.push(`${"东南西北"[s]}家 seat ${s}: ${need} 张 tiles`);
      });
      if (nc.winner !== null && !nc.win) missing.push("和张 winning tile");
      resultBox.append(h("p.muted", "还缺 missing: " + missing.join(" · ")));
      return;
    }
    const need = needConcealed(mcr, false) - mcr.hand.length;
    const parts = [];
    if (need > 0) parts.push(`还需 ${need} 张手牌 · ${need} more concealed tile${need > 1 ? "s" : ""}`);
    if (!mcr.win) parts.push("选和张 · pick the winning tile (和张 mode)");
    resultBox.append(h("p.muted#calc-status", parts.join(" · ") || ""));
  }

  function handJson() {
    if (rules === "nanchang") {
      const d = {
        rules: "nanchang", jing_indicator: nc.jing, dealer: nc.dealer, winner: nc.winner,
        win_tile: nc.winner === null ? null : nc.win, method: nc.method,
        discarder: ["discard", "robbed_kong", "earthly"].includes(nc.method) ? nc.discarder : null,
        hands: nc.hands.map((hd) => ({ concealed: hd.concealed.slice(), melds: hd.melds.map(meldJson) })),
      };
      if (nc.dianpao !== "three") d.options = { dianpao_pay: nc.dianpao };
      return d;
    }
    return {
      melds: mcr.melds.map(meldJson), hand: mcr.hand.slice(), win_tile: mcr.win,
      ...mcr.flags, seat_wind: mcr.seat_wind, prevalent_wind: mcr.prevalent_wind, flowers: mcr.flowers, rules,
    };
  }

  function meldJson(m) {
    const d = { kind: m.kind, tiles: m.tiles.slice(), concealed: !!m.concealed };
    if (m.kind === "chow") d.claimed = m.claimed ?? 0;
    else if (!m.concealed) d.from = m.from || 1;
    return d;
  }

  async function calculate() {
    const body = handJson();
    const key = JSON.stringify(body);
    lastSent = key;
    clear(resultBox);
    resultBox.append(h("p.muted", "计算中… calculating…"));
    let r;
    try {
      r = await api("/api/fan", { method: "POST", body, auth: false });
    } catch (e) {
      r = { error: e.message };
    }
    if (lastSent !== key) return;
    clear(resultBox);
    if (r.error) {
      resultBox.append(h("div.calc-error#calc-error", { role: "alert" }, h("b", "不是和牌或输入有误 · Not a valid win: "), r.error));
      return;
    }
    if (rules === "nanchang") showNanchang(r);
    else showMcr(r);
  }

  function showMcr(r) {
    const rows = (r.fans || []).map((f) => h("tr.fan", { dataset: { fan: f.name } },
      h("td.zh", f.zh), h("td", f.name), h("td.num", String(f.points)), h("td.num", `×${f.count}`),
      h("td.num", String(f.points * f.count)),
      h("td.from", (f.from || []).map((sets) => h("div", sets.join(" + "))))));
    const ok = !r.below_minimum;
    resultBox.append(
      h("div.total-line",
        h("span.total#calc-total", { dataset: { total: r.total } }, `${r.total}`, h("small", " 番 fan")),
        h(`span.badge.${ok ? "ok" : "bad"}#calc-min`, ok ? "≥ 8 番 起和 ✓ meets the 8-fan minimum"
          : "不足 8 番 ✗ below the 8-fan minimum (flowers not counted)")),
      r.reading ? h("p.reading", "拆法 reading: ", h("code", r.reading)) : null,
      h("table.fans#calc-fans",
        h("thead", h("tr", h("th", "番种"), h("th", "Fan"), h("th.num", "番"), h("th.num", "次"), h("th.num", "小计"),
          h("th", "来自 counted from"))),
        h("tbody", rows),
        h("tfoot", h("tr.total", h("td", "合计"), h("td", "Total"), h("td"), h("td"), h("td.num", String(r.total)), h("td")))));
  }

  function showNanchang(r) {
    const seatName = (s) => `${"东南西北"[s]}家 seat ${s}`;
    const hu = r.hu || [];
    resultBox.append(
      h("div.total-line",
        h("span.total#calc-total", { dataset: { total: r.multiplier ?? "" } }, r.multiplier !== undefined ? `×${r.multiplier}` : "–",
          h("small", " 倍 multiplier"))),
      h("table.fans#calc-fans", h("thead", h("tr", h("th", "胡"), h("th", "Item"))),
        h("tbody", hu.length ? hu.map((x) => h("tr.fan", h("td.zh", x), h("td", HU_EN[x] || ""))) : h("tr", h("td", { colSpan: 2 }, "流局 no winner")))),
      h("table.fans#nc-deltas",
        h("thead", h("tr", h("th", "座位 Seat"), h("th.num", "合计 Total"),
          ...Object.keys(r.parts || {}).map((k) => h("th.num", PART_ZH[k] || k)))),
        h("tbody", (r.deltas || []).map((d, s) => h("tr", h("td", seatName(s) + (s === nc.winner ? " 和" : "")),
          h(`td.num.${d >= 0 ? "pos" : "neg"}`, signed(d)),
          ...Object.values(r.parts || {}).map((p) => h("td.num", signed(p[s]))))))));
  }

  // ---- drawing -------------------------------------------------------------------------------
  function drawLeft() {
    clear(left);
    const rulesRow = h("div.seg#calc-rules", [["gb", "国标", "MCR"], ["botzone", "Botzone", "MCR Botzone"], ["nanchang", "南昌", "Nanchang"]]
      .map(([v, zh, en]) => h(`button.seg-btn${rules === v ? ".on" : ""}`, {
        dataset: { rules: v },
        on: {
          click: () => {
            rules = v;
            if (mode === "jing" && v !== "nanchang") mode = "hand";
            changed();
          },
        },
      }, bi(zh, en))));
    left.append(h("div.card", h("h3", bi("规则", "Rules")), rulesRow));
    if (rules === "nanchang") left.append(ncControls());
    const modes = rules === "nanchang" ? NC_MODES : MODES;
    left.append(h("div.card",
      h("h3", bi("添加到", "Add to")),
      h("div.seg.modes#calc-modes", modes.map(([v, zh, en]) => h(`button.seg-btn${mode === v ? ".on" : ""}`, {
        dataset: { mode: v },
        on: {
          click: () => {
            mode = v;
            drawLeft();
          },
        },
      }, bi(zh, en)))),
      h("p.small.muted", {
        chow: "吃：点顺子的最小一张 · chow: click the lowest tile of the run",
        pung: "碰：点一张 · pung: click the tile", kong: "明杠：点一张 · kong: click the tile",
        ckong: "暗杠：点一张 · concealed kong: click the tile", win: "和张：最后和的那张 · the tile that completed the hand",
        hand: "手牌：不含和张 · concealed tiles, without the winning tile", jing: "翻出的精牌 · the turned-up jing indicator",
      }[mode]),
      palette(),
      flashEl = h("p.flash#calc-flash", { role: "status" })));
    if (rules === "nanchang") {
      left.append(h("div.card", h("h3", bi("例子", "Examples")),
        h("div.examples", NC_EXAMPLES.map((ex, i) => h("button.btn.small", {
          dataset: { example: `nc${i}` },
          on: {
            click: () => {
              nc = { ...freshNc(), ...structuredClone(ex.s) };
              changed();
            },
          },
        }, `${ex.zh} ${ex.en}`)))));
    } else {
      left.append(h("div.card", h("h3", bi("例子", "Examples")),
        h("div.examples", EXAMPLES.map((ex, i) => h("button.btn.small", {
          dataset: { example: i },
          on: {
            click: () => {
              mcr = { ...freshMcr(), ...structuredClone(ex.s), flags: { ...freshMcr().flags, ...(ex.s.flags || {}) } };
              changed();
            },
          },
        }, `${ex.zh} ${ex.en}`)))));
    }
  }

  function palette() {
    const c = used();
    const rows = [["m", "万 Characters"], ["p", "饼 Dots"], ["s", "条 Bamboo"], ["z", "字 Honors"]];
    return h("div.palette#palette", rows.map(([suit, label]) => h("div.prow",
      h("span.plabel", label),
      (suit === "z" ? HONORS : ALL_KINDS.filter((t) => t[1] === suit)).map((t) => {
        const n = c[t] || 0;
        const b = h(`button.pal${n >= 4 ? ".full" : ""}`, {
          dataset: { tile: t },
          title: `${tileName(t)}${n ? ` · 已用 ${n}/4 used` : ""}`,
          on: { click: () => pick(t) },
        }, tileEl(t, { size: "md" }), n ? h("span.used", String(n)) : null);
        return b;
      }))));
  }

  function ncControls() {
    const sel = (id, opts, value, onChange) => {
      const s = h(`select#${id}`, opts.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label)));
      s.addEventListener("change", () => onChange(s.value));
      return s;
    };
    const seatOpts = [0, 1, 2, 3].map((s) => [s, `${"东南西北"[s]}家 seat ${s}`]);
    return h("div.card.nc-controls",
      h("h3", bi("南昌麻将", "Nanchang table")),
      h("div.grid2",
        h("label", "庄家 dealer", sel("nc-dealer", seatOpts, nc.dealer, (v) => { nc.dealer = +v; changed(); })),
        h("label", "和牌者 winner", sel("nc-winner", [...seatOpts, ["", "流局 nobody (draw)"]], nc.winner ?? "", (v) => {
          nc.winner = v === "" ? null : +v;
          changed();
        })),
        h("label", "方式 method", sel("nc-method", METHODS.map(([v, zh, en]) => [v, `${zh} ${en}`]), nc.method, (v) => {
          nc.method = v;
          if (["discard", "robbed_kong", "earthly"].includes(v) && nc.discarder === null) nc.discarder = (nc.winner + 1) % 4;
          changed();
        })),
        ["discard", "robbed_kong", "earthly"].includes(nc.method)
          ? h("label", "放炮者 discarder", sel("nc-discarder", seatOpts, nc.discarder ?? 0, (v) => { nc.discarder = +v; changed(); }))
          : null,
        h("label", "点炮 pays", sel("nc-dianpao", [["three", "三家付 all three"], ["one", "一家付 discarder only"]], nc.dianpao, (v) => {
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
      }, `${"东南西北"[s]}家 ${s}${s === nc.winner ? " 和" : ""} (${nc.hands[s].concealed.length + nc.hands[s].melds.length * 3})`))),
      h("button.btn.small#nc-fill", { on: { click: fillOthers } }, bi("随机补齐其他家", "Fill the other seats at random")));
  }

  function fillOthers() {
    const c = used();
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

  function drawRight() {
    clear(right);
    const tgt = target();
    const conc = rules === "nanchang" ? tgt.concealed : tgt.hand;
    const win = rules === "nanchang" ? nc.win : mcr.win;
    const meldBox = h("div.calc-melds#calc-melds", tgt.melds.map((m, i) => {
      const el = h("div.calc-meld", meldEl(m, "md"));
      if (m.kind === "chow") {
        el.append(h("div.meld-opt", "吃的是 claimed: ", m.tiles.map((t, k) => h(`button.mini${(m.claimed ?? 0) === k ? ".on" : ""}`, {
          on: { click: () => { m.claimed = k; changed(); } },
        }, tileZh(t)))));
      } else if (!m.concealed) {
        el.append(h("div.meld-opt", "来自 from: ", FROM.map(([v, zh, en]) => h(`button.mini${m.from === v ? ".on" : ""}`, {
          title: en,
          on: { click: () => { m.from = v; changed(); } },
        }, zh))));
      }
      el.append(h("button.mini.x", { title: "删除 remove", on: { click: () => { tgt.melds.splice(i, 1); changed(); } } }, "✕"));
      return el;
    }));
    const concBox = h("div.calc-concealed#calc-concealed", conc.map((t, i) => {
      const el = tileEl(t, { size: "lg", title: `${tileName(t)} — 点击移除 click to remove` });
      el.classList.add("removable");
      el.addEventListener("click", () => {
        conc.splice(i, 1);
        changed();
      });
      return el;
    }));
    const winBox = h("div.calc-win#calc-win", win
      ? (() => {
        const el = tileEl(win, { size: "lg", title: `和张 ${tileName(win)} — 点击移除 click to remove` });
        el.classList.add("removable");
        el.addEventListener("click", () => {
          if (rules === "nanchang") nc.win = null;
          else mcr.win = null;
          changed();
        });
        return el;
      })()
      : h("span.placeholder", "和张 ?"));
    const showWin = rules !== "nanchang" || nc.active === nc.winner;
    right.append(h("div.card.calc-hand",
      h("h3", rules === "nanchang" ? `${"东南西北"[nc.active]}家 seat ${nc.active}` : bi("这手牌", "The hand"),
        h("button.btn.small.ghost#calc-clear", {
          on: {
            click: () => {
              if (rules === "nanchang") nc = freshNc();
              else mcr = freshMcr();
              changed();
            },
          },
        }, bi("清空", "Clear"))),
      h("div.calc-handrow", meldBox, concBox, showWin ? h("div.winwrap", h("span.small", "和 win"), winBox) : null),
      rules === "nanchang" && nc.jing ? h("div.small", "精 indicator: ", tileEl(nc.jing, { size: "sm" })) : null));
    if (rules !== "nanchang") right.append(mcrOptions());
    else right.append(ncOverview());
    right.append(h("div.row",
      h("button.btn.primary.big#calc-go", { on: { click: calculate } }, bi("算番", "Calculate")),
      h("details.json", h("summary", "hand-json"), h("pre#calc-json", JSON.stringify(handJson(), null, 1)))));
  }

  function ncOverview() {
    return h("div.card.nc-overview#nc-overview", h("h3", bi("四家手牌", "All four hands")),
      nc.hands.map((hd, s) => h(`div.nc-seat${s === nc.active ? ".on" : ""}`, {
        dataset: { seat: s },
        on: {
          click: () => {
            nc.active = s;
            changed();
          },
        },
      },
      h("span.nc-label", `${"东南西北"[s]}家`, s === nc.dealer ? h("span.badge", "庄") : null,
        s === nc.winner ? h("span.badge.ok", "和") : null),
      h("div.nc-tiles", hd.melds.map((m) => meldEl(m, "xs")), hd.concealed.map((t) => tileEl(t, { size: "xs" })),
        s === nc.winner && nc.win ? h("span.nc-win", tileEl(nc.win, { size: "xs" })) : null))));
  }

  function mcrOptions() {
    const flag = (key, zh, en) => {
      const box = h("input", { type: "checkbox", checked: !!mcr.flags[key], dataset: { flag: key } });
      box.addEventListener("change", () => {
        mcr.flags[key] = box.checked;
        changed();
      });
      return h("label.check", box, bi(zh, en));
    };
    const windSel = (id, value, set) => {
      const s = h(`select#${id}`, WINDS.map(([v, zh, en]) => h("option", { value: v, selected: v === value }, `${zh} ${en}`)));
      s.addEventListener("change", () => {
        set(s.value);
        changed();
      });
      return s;
    };
    const flowers = h("input#calc-flowers", { type: "number", min: "0", max: "8", value: String(mcr.flowers) });
    flowers.addEventListener("change", () => {
      mcr.flowers = Math.max(0, Math.min(8, parseInt(flowers.value, 10) || 0));
      changed();
    });
    return h("div.card.calc-opts",
      h("div.flags",
        flag("self_drawn", "自摸", "Self-drawn"),
        flag("fourth_tile", "和绝张", "Last of its kind"),
        flag("kong", "杠上开花 / 抢杠和", "Kong: replacement / robbing"),
        flag("last_tile", "妙手回春 / 海底捞月", "Last tile of the wall")),
      h("div.grid2",
        h("label", "门风 seat wind ", windSel("calc-seat-wind", mcr.seat_wind, (v) => { mcr.seat_wind = v; })),
        h("label", "圈风 prevalent wind ", windSel("calc-prevalent-wind", mcr.prevalent_wind, (v) => { mcr.prevalent_wind = v; })),
        h("label", "花牌 flowers ", flowers)));
  }

  changed();
  return () => clearTimeout(timer);
}
