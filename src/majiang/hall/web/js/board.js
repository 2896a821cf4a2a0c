// The table stage (牌桌): four seats around a green felt, drawn from a HandModel.  Used by the live
// table and by the replay viewer.  Layout: a fixed 1280×900 stage scaled to fit its box; the seat at
// the bottom is `opts.bottom`, 下家 on the right, 对家 on top, 上家 on the left (play goes
// counter-clockwise).  Each seat's hand and pond are rotated to face that seat, so ponds run left to
// right, six to a row, from their owner's point of view.

import { h, L, REL_EN, REL_ZH, WIND_EN, WIND_ZH, signed } from "./util.js";
import { tr } from "./i18n.js";
import { tileEl, tileName, tileZh } from "./tiles.js";

export const STAGE_W = 1280;
export const STAGE_H = 900;

const MELD_ZH = { chow: "吃", pung: "碰", kong: "杠" };
const FROM_ZH = { 1: "上家", 2: "对家", 3: "下家" };

/** The tiles of one meld in table manners: the claimed tile sideways (left 上家, middle 对家, right
 * 下家), a concealed kong face down, an added kong's fourth tile laid on the sideways tile. */
export function meldEl(meld, size, { showConcealed = true } = {}) {
  const el = h("div.meld", { dataset: { kind: meld.kind } });
  const tiles = meld.tiles;
  let title = `${MELD_ZH[meld.kind] || meld.kind} ${tiles.filter(Boolean).map(tileZh).join("")}`;
  if (meld.kind === "kong" && meld.concealed) {
    el.classList.add("concealed");
    title = "暗杠 concealed kong" + (tiles[0] ? ` ${tileName(tiles[0])}` : "");
    tiles.forEach((t, i) => {
      const face = t && showConcealed && (i === 1 || i === 2);
      el.append(tileEl(face ? t : null, { size, title, cls: face ? "dim" : "" }));
    });
    el.title = title;
    return el;
  }
  let order = tiles.slice();
  let side = -1;
  if (meld.kind === "chow") {
    const c = meld.claimed ?? 0;
    order = [tiles[c], ...tiles.filter((_, i) => i !== c)];
    side = 0;
    title += " · 吃上家 chow from the left";
  } else if (meld.from) {
    if (meld.kind === "kong" && meld.added) {
      order = tiles.slice(0, 3);
      side = { 1: 0, 2: 1, 3: 2 }[meld.from];
      title = `加杠 added kong ${tileName(tiles[0])} · ${FROM_ZH[meld.from]}`;
    } else if (meld.kind === "kong") {
      side = { 1: 0, 2: 1, 3: 3 }[meld.from];
      title = `明杠 kong ${tileName(tiles[0])} · ${FROM_ZH[meld.from]}`;
    } else {
      side = { 1: 0, 2: 1, 3: 2 }[meld.from];
      title = `碰 pung ${tileName(tiles[0])} · ${FROM_ZH[meld.from]}`;
    }
  }
  order.forEach((t, i) => {
    if (i === side) {
      if (meld.added) {
        el.append(h("span.stack", tileEl(t, { size, sideways: true }), tileEl(t, { size, sideways: true })));
      } else {
        el.append(tileEl(t, { size, sideways: true, cls: "claimed" }));
      }
    } else {
      el.append(tileEl(t, { size }));
    }
  });
  el.title = title;
  return el;
}

function rel(seat, bottom) {
  return (seat - bottom + 4) % 4;
}

export function handTiles(model, seat, r, opts) {
  const st = model.seats[seat];
  const box = h("div.concealed");
  const size = r === 0 ? (opts.bottomSize || "lg") : "sm";
  const visible = st.hand && (r === 0 || opts.reveal);
  if (visible) {
    let tiles = st.hand.slice();
    let drawn = null;
    if (st.drawn && st.drawn !== "?" && tiles.includes(st.drawn)) {
      drawn = st.drawn;
      tiles.splice(tiles.lastIndexOf(drawn), 1);
    }
    const mine = r === 0 && opts.canDiscard;
    const addTile = (t, parent, isDrawn) => {
      const el = tileEl(t, { size });
      if (mine) {
        if (opts.canDiscard.has(t)) {
          el.classList.add("playable");
          el.tabIndex = 0;
          el.setAttribute("role", "button");
          el.title = `打出 ${tileName(t)} (discard)`;
          const go = () => opts.onDiscard(t, isDrawn);
          el.addEventListener("click", go);
          el.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") go();
          });
        }
      }
      if (isDrawn) el.classList.add("drawn-tile");
      parent.append(el);
    };
    tiles.forEach((t) => addTile(t, box, false));
    const out = [box];
    if (drawn) {
      const d = h("div.drawn");
      addTile(drawn, d, true);
      out.push(d);
    }
    return out;
  }
  let n = st.count;
  const hasDrawn = st.drawn === "?" && n > 0;
  if (hasDrawn) n -= 1;
  for (let i = 0; i < Math.max(0, n); i++) box.append(tileEl(null, { size }));
  const out = [box];
  if (hasDrawn) out.push(h("div.drawn", tileEl(null, { size })));
  return out;
}

/** Mark the jing (精, Nanchang's wild tiles) among the tiles under `root`: 正精 gold, 副精 silver. */
export function markJing(root, jing) {
  if (!jing) return;
  for (const img of root.querySelectorAll("img.tile[data-tile]")) {
    const t = img.dataset.tile;
    if (t === jing.zheng) img.classList.add("jing-z");
    else if (t === jing.fu) img.classList.add("jing-f");
    else continue;
    img.title += t === jing.zheng ? " · 正精 jing (wild)" : " · 副精 secondary jing (wild)";
  }
}

/** A seat's melds; the one just claimed (opts.fresh: {seat, n}) pops in. */
export function meldsEl(model, seat, size, opts) {
  const st = model.seats[seat];
  const melds = h("div.melds", st.melds.map((m) => meldEl(m, size, { showConcealed: seat === opts.me || opts.reveal })));
  const f = opts.fresh && opts.fresh.find((x) => x.seat === seat);
  if (f && melds.lastElementChild) melds.lastElementChild.classList.add("fresh");
  return melds;
}

const DIE = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** Dice faces (values 1–6). */
export function diceEl(values) {
  return h("div.dice#dice", { title: `掷骰 dice ${values.join(" + ")}`, dataset: { dice: values.join(",") } },
    values.map((v) => h("span.die", DIE[v - 1] || String(v))), h("span.dsum", String(values.reduce((a, b) => a + b, 0))));
}

function strip(model, seat, r, opts) {
  const meldSize = r === 0 ? (opts.bottomMeldSize || "md") : "sm";
  const melds = meldsEl(model, seat, meldSize, { ...opts, me: r === 0 ? seat : -1 });
  const cls = model.current === seat && model.phase === "turn" && model.started ? ".active" : "";
  return h(`div.strip.pos${r}${cls}`, { dataset: { seat } }, ...handTiles(model, seat, r, opts), melds);
}

/** A pond tile's classes: taken by a claim, 摸切 (the tile just drawn, thrown: a shade darker), the last discard. */
function pondClass(st, i, last, pending = false) {
  return [st.claimed[i] && "taken", st.moqie[i] && "moqie", last && "last", pending && "pending"].filter(Boolean).join(" ");
}

/** What a pond tile's title adds: claimed, 摸切. */
function pondNote(st, i) {
  return (st.claimed[i] ? " · 被吃碰杠 claimed" : "") + (st.moqie[i] ? " · 摸切 thrown as drawn" : "");
}

function pond(model, seat, r, opts) {
  const st = model.seats[seat];
  const golden = !!(opts.names && opts.names[seat] && opts.names[seat].golden_finger); // 金手指 (an item)
  const el = h(`div.pond.pos${r}`, { dataset: { seat } });
  st.discards.forEach((t, i) => {
    const last = model.lastDiscard && model.lastDiscard.seat === seat && model.lastDiscard.index === i;
    const pending = last && model.pending && model.pending.seat === seat && model.phase !== "turn";
    const cls = pondClass(st, i, last, pending);
    const tile = tileEl(t, { size: "sm", cls, title: tileName(t) + pondNote(st, i) });
    const marker = golden ? h("span.marker.golden", { title: "金手指 golden finger" }, "☟") : h("span.marker", "▼");
    el.append(last ? h("span.lastwrap", tile, marker) : tile);
  });
  return el;
}

function plate(model, seat, r, opts) {
  const info = (opts.names && opts.names[seat]) || null;
  const wind = model.started ? model.seatWind(seat) : "ESWN"[seat];
  const flags = [];
  if (info && info.bot) flags.push(h("span.flag.bot", L("bot")));
  if (info && info.auto && !info.bot) flags.push(h("span.flag.auto", L("auto")));
  if (info && !info.online) flags.push(h("span.flag.off", L("offline")));
  if (info && info.golden_finger) flags.push(h("span.flag.golden", "☟ ", L("table.golden")));
  const dealer = model.started && model.dealer === seat;
  const active = model.started && model.current === seat && model.phase !== "over";
  const st = model.seats[seat];
  return h(`div.plate.pos${r}${active ? ".active" : ""}`, { dataset: { seat } },
    h("div.plate-top",
      h("span.wind", { title: `${WIND_ZH[wind]}家 ${WIND_EN[wind]} seat` }, L(`wind1.${wind}`)),
      dealer ? h("span.dealer", { title: tr("board.dealer_title") }, L("board.dealer")) : null,
      info ? h("span.pname", { title: info.name, dataset: { langFree: "" } }, info.name) : h("span.pname", L("board.empty")),
    ),
    h("div.plate-mid",
      h("span.rel", opts.noRel ? L("board.seat_n", { n: seat }) : L(`rel.${r}`)),
      h("span.score", { title: tr("board.score") }, model.started ? String(model.scores[seat]) : ""),
      opts.deltas ? h("span.delta" + (opts.deltas[seat] >= 0 ? ".pos" : ".neg"), signed(opts.deltas[seat])) : null,
    ),
    flags.length ? h("div.flags", flags) : null,
    st.flowers.length ? h("div.flowers", { title: `花牌 flowers: ${st.flowers.length}`, dataset: { n: st.flowers.length } },
      h("span.fl-n", L("board.flower_label"), ` ${st.flowers.length}`), st.flowers.map((f) => tileEl(f, { size: "xs" }))) : null,
  );
}

function centerBox(model, bottom, opts) {
  const box = h("div.center-box");
  for (let s = 0; s < 4; s++) {
    const r = rel(s, bottom);
    const w = model.started ? model.seatWind(s) : "ESWN"[s];
    const on = model.started && model.current === s && model.phase !== "over";
    box.append(h(`div.cwind.pos${r}${on ? ".on" : ""}${model.dealer === s && model.started ? ".dealer" : ""}`,
      { title: `${WIND_ZH[w]} ${WIND_EN[w]}` }, L(`wind1.${w}`)));
  }
  const mid = h("div.cmid");
  if (!model.started) {
    mid.append(h("div.cwait", opts.waiting || L("board.waiting")));
  } else {
    mid.append(
      h("div.round", { title: `${WIND_EN[model.prevalent]} round, hand ${model.handNo + 1}` },
        L("board.round", { wind: { zh: WIND_ZH[model.prevalent], en: WIND_EN[model.prevalent] }, n: model.handNo + 1 })),
      h("div.wallcount", { title: tr("board.wall_title") },
        h("span.num", model.wall === null ? "–" : String(model.wall)), h("span.lbl", L("board.left"))),
    );
    if (opts.countdown) mid.append(opts.countdown);
    if (opts.dice) mid.append(diceEl(opts.dice));
    if (model.jing) {
      mid.append(h("div.jing", { title: `精 jing: 正精 ${tileName(model.jing.zheng)} · 副精 ${tileName(model.jing.fu)}` },
        h("span", L("board.jing")), tileEl(model.jing.zheng, { size: "xs" }), tileEl(model.jing.fu, { size: "xs" })));
    }
  }
  box.append(mid);
  return box;
}

/**
 * Build the stage.  opts: {bottom, names[4], reveal, canDiscard:Set, onDiscard(t), countdown:Element,
 * waiting, deltas, overlay:Element}
 */
export function renderStage(model, opts = {}) {
  const bottom = opts.bottom ?? 0;
  const stage = h("div.stage");
  const felt = h("div.felt");
  stage.append(felt);
  const center = h("div.center");
  for (let s = 0; s < 4; s++) center.append(pond(model, s, rel(s, bottom), opts));
  center.append(centerBox(model, bottom, opts));
  felt.append(center);
  for (let s = 0; s < 4; s++) {
    const r = rel(s, bottom);
    felt.append(strip(model, s, r, opts));
    felt.append(plate(model, s, r, opts));
  }
  if (opts.overlay) stage.append(opts.overlay);
  markJing(stage, model.jing);
  return stage;
}

/** Scale a stage to fit `box` (keeps the aspect ratio). */
export function fitStage(box, stage) {
  const w = box.clientWidth;
  const hgt = box.clientHeight;
  if (!w || !hgt) return;
  const s = Math.min(w / STAGE_W, hgt / STAGE_H);
  stage.style.transform = `scale(${s})`;
  stage.style.left = `${Math.max(0, (w - STAGE_W * s) / 2)}px`;
  stage.style.top = `${Math.max(0, (hgt - STAGE_H * s) / 2)}px`;
}

/**
 * One seat's pond, melds and flowers at a readable size, outside the scaled stage: what a tap on a seat
 * opens (on a phone the stage's other ponds are a dozen pixels wide).  The last discard is marked.
 */
export function seatDetail(model, seat, names, onClose) {
  const st = model.seats[seat];
  const info = (names && names[seat]) || null;
  const wind = model.started ? model.seatWind(seat) : "ESWN"[seat];
  const discards = h("div.detail-tiles#seat-detail-pond", st.discards.map((t, i) => {
    const last = model.lastDiscard && model.lastDiscard.seat === seat && model.lastDiscard.index === i;
    return tileEl(t, { size: "sm", cls: pondClass(st, i, last),
      title: tileName(t) + pondNote(st, i) + (last ? " · 最后打出 last discard" : "") });
  }));
  return h("div.seat-detail#seat-detail", { dataset: { seat }, role: "dialog", "aria-label": "seat detail" },
    h("div.detail-head",
      h("b", L("board.seat_detail", { wind: { zh: WIND_ZH[wind], en: WIND_EN[wind] }, name: info ? info.name : "–" })),
      h("button.btn.small#seat-detail-close", { on: { click: onClose }, "aria-label": "close" }, "✕")),
    h("h4", L("board.discards")), st.discards.length ? discards : h("p.small", L("board.none_yet")),
    h("h4", L("board.melds")), st.melds.length ? meldsEl(model, seat, "sm", { me: -1 }) : h("p.small", L("board.none")),
    st.flowers.length ? h("h4", L("board.flowers", { n: st.flowers.length })) : null,
    st.flowers.length ? h("div.detail-tiles", st.flowers.map((f) => tileEl(f, { size: "sm" }))) : null);
}
