// The calculator's MCR form (rulesets whose descriptor says form "mcr": gb, botzone): one winning
// hand with its flags, winds and flowers; the result is its fans with the sets each was counted from.

import { bi, h, L } from "./util.js";
import { msg, tr } from "./i18n.js";
import { MODES, meldJson, needConcealed } from "./calc-common.js";

const WINDS = [["E", "东", "East"], ["S", "南", "South"], ["W", "西", "West"], ["N", "北", "North"]];

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

function fresh() {
  return {
    melds: [], hand: [], win: null, seat_wind: "E", prevalent_wind: "E", flowers: 0,
    flags: { self_drawn: false, fourth_tile: false, kong: false, last_tile: false },
  };
}

export function createForm() {
  let mcr = fresh();
  return {
    modes: MODES,
    examples: EXAMPLES.map((ex, i) => ({ id: String(i), zh: ex.zh, en: ex.en })),

    reset() {
      mcr = fresh();
    },
    loadExample(i) {
      const ex = EXAMPLES[+i];
      mcr = { ...fresh(), ...structuredClone(ex.s), flags: { ...fresh().flags, ...(ex.s.flags || {}) } };
    },
    /** The hand clicks go to: {melds} (its concealed tiles are concealed()). */
    target: () => mcr,
    concealed: () => mcr.hand,
    sortConcealed(sort) {
      mcr.hand = sort(mcr.hand);
    },
    win: () => mcr.win,
    setWin(t) {
      mcr.win = t;
    },
    pick: () => false, // no modes of its own
    usedTiles(add) {
      mcr.hand.forEach(add);
      mcr.melds.forEach((m) => m.tiles.forEach(add));
      add(mcr.win);
    },
    complete: () => mcr.win && mcr.hand.length === needConcealed(mcr, false),
    missing(box) {
      const need = needConcealed(mcr, false) - mcr.hand.length;
      const n = mcr.hand.length + 3 * mcr.melds.length + (mcr.win ? 1 : 0); // kongs count as 3
      const what = [need > 0 ? msg("calc_mcr.need", { n: need }) : null, !mcr.win ? msg("calc_mcr.need_win") : null]
        .filter(Boolean);
      box.append(h("p.muted#calc-status", { dataset: { tiles: n } }, L("calc_mcr.incomplete",
        { n, what: { zh: what.map((x) => x.zh).join("，"), en: what.map((x) => x.en).join(", ") } })));
    },
    handJson(rules) {
      return {
        melds: mcr.melds.map(meldJson), hand: mcr.hand.slice(), win_tile: mcr.win,
        ...mcr.flags, seat_wind: mcr.seat_wind, prevalent_wind: mcr.prevalent_wind, flowers: mcr.flowers, rules,
      };
    },
    show: showResult,
    controls: () => null,
    handTitle: () => L("calc_mcr.the_hand"),
    showWin: () => true,
    handExtra: () => null,
    options: (changed) => options(mcr, changed),
  };
}

const NOTES = new Set(["discard", "self-drawn", "drawn"]);

/** A set a fan was counted from: its tiles in notation ("[EEE]", tile faces in text: data-lang-free) and a
 * note such as "(discard)" in the chosen language. */
function setEl(set) {
  const m = /^(.*?)\s*\(([\w -]+)\)$/.exec(set);
  if (!m || !NOTES.has(m[2])) return h("span", { dataset: { langFree: "" } }, set);
  return [h("span", { dataset: { langFree: "" } }, m[1]), " (", L(`calc_mcr.note.${m[2]}`), ")"];
}

function showResult(r, box) {
  const rows = (r.fans || []).map((f) => h("tr.fan", { dataset: { fan: f.name } },
    h("td.zh", { dataset: { langFree: "" } }, f.zh), h("td", { dataset: { langFree: "" } }, f.name), h("td.num", String(f.points)), h("td.num", `×${f.count}`),
    h("td.num", String(f.points * f.count)),
    h("td.from", (f.from || []).map((sets) => h("div", sets.flatMap((set, i) => [i ? " + " : null, setEl(set)]))))));
  const ok = !r.below_minimum;
  box.append(
    h("div.total-line",
      h("span.total#calc-total", { dataset: { total: r.total } }, `${r.total}`, h("small", L("calc_mcr.fan"))),
      h(`span.badge.${ok ? "ok" : "bad"}#calc-min`, L(ok ? "calc_mcr.min_ok" : "calc_mcr.min_bad"))),
    r.reading ? h("p.reading", L("calc_mcr.reading"), h("code", { dataset: { langFree: "" } }, r.reading)) : null,
    h("table.fans#calc-fans",
      h("thead", h("tr", h("th", h("span.zh", msg("table.fan").zh)), h("th", h("span.en", msg("table.fan").en)),
        h("th.num", L("calc_mcr.points")), h("th.num", L("calc_mcr.count")), h("th.num", L("calc_mcr.subtotal")),
        h("th", L("calc_mcr.counted_from")))),
      h("tbody", rows),
      h("tfoot", h("tr.total", h("td", h("span.zh", msg("table.fan_total").zh)), h("td", h("span.en", msg("table.fan_total").en)), h("td"), h("td"), h("td.num", String(r.total)), h("td")))));
}

function options(mcr, changed) {
  const flag = (key) => {
    const box = h("input", { type: "checkbox", checked: !!mcr.flags[key], dataset: { flag: key } });
    box.addEventListener("change", () => {
      mcr.flags[key] = box.checked;
      changed();
    });
    return h("label.check", box, L(`calc_mcr.flag.${key}`));
  };
  const windSel = (id, value, set) => {
    const s = h(`select#${id}`, WINDS.map(([v, zh, en]) => h("option", { value: v, selected: v === value }, tr(`wind.${v}`))));
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
      flag("self_drawn"),
      flag("fourth_tile"),
      flag("kong"),
      flag("last_tile")),
    h("div.grid2",
      h("label", L("calc_mcr.seat_wind"), windSel("calc-seat-wind", mcr.seat_wind, (v) => { mcr.seat_wind = v; })),
      h("label", L("calc_mcr.prevalent_wind"), windSel("calc-prevalent-wind", mcr.prevalent_wind, (v) => { mcr.prevalent_wind = v; })),
      h("label", L("calc_mcr.flowers"), flowers)));
}
