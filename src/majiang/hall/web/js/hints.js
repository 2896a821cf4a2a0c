// 听牌 hints at the table: is our own hand ready (听), on which tiles, how many of each are still
// unseen, and which reach 8 fan (合法听) with their fan totals; on our turn with one tile more, which
// discards keep the hand ready.  Asked of POST /api/shanten (docs/hand-json.md, 合法听) on demand (the
// 听 button) and after our own discard at most; the query holds only what this seat sees: its own
// hand and melds, and the visible tiles (every pond, every exposed meld).

import { api } from "./api.js";
import { t, tr } from "./i18n.js";
import { bi, h, L } from "./util.js";
import { tileEl, tileEn, tileName, tileZh } from "./tiles.js";
import { defaultRuleset, minFan } from "./rulesets.js";

function meldJson(m) {
  const d = { kind: m.kind, tiles: m.tiles.slice(), concealed: !!m.concealed };
  if (m.kind === "chow") d.claimed = m.claimed ?? 0;
  else if (!m.concealed) d.from = m.from || 1;
  return d;
}

/** The shanten query for our seat, or null when there is no hand of ours to ask about. */
export function hintQuery(session) {
  const m = session.model;
  const me = session.seat;
  if (session.spectator || me === null || !m.started || m.phase === "over") return null;
  const st = m.seats[me];
  if (!st || !st.hand || st.hand.some((x) => !x)) return null;
  const n = st.hand.length + 3 * st.melds.length;
  if (n !== 13 && n !== 14) return null;
  const visible = [];
  m.seats.forEach((s, i) => {
    s.discards.forEach((x, k) => {
      if (x && !s.claimed[k]) visible.push(x); // a claimed discard is counted in its meld
    });
    if (i !== me) for (const md of s.melds) for (const x of md.tiles) if (x) visible.push(x);
  });
  const body = { melds: st.melds.map(meldJson), hand: st.hand.slice(), visible };
  const rules = m.rules || defaultRuleset();
  const fans = minFan(rules); // the fan minimum of a ruleset scored in fans, else null
  if (fans !== null) {
    Object.assign(body, { rules, min_fan: fans, seat_wind: m.seatWind(me),
      prevalent_wind: m.prevalent || "E" });
  } else {
    body.fans = false;
  }
  const seen = {};
  for (const x of [...st.hand, ...st.melds.flatMap((md) => md.tiles), ...visible]) if (x) seen[x] = (seen[x] || 0) + 1;
  return { body, size: n, fans, seen, drawn: st.drawn && st.drawn !== "?" ? st.drawn : st.hand[st.hand.length - 1] };
}

function unseen(q, tile) {
  return Math.max(0, 4 - (q.seen[tile] || 0));
}

function waitsOf(q, r) {
  const fans = {};
  for (const w of r.wait_fans || []) fans[w.tile] = w;
  return (r.waits || []).filter((x) => !q.fans || fans[x] || !(r.wait_fans)).map((tile) => ({
    tile, unseen: unseen(q, tile), fan: fans[tile] || null,
  }));
}

/** Ask the server; `auto` (after our own discard): keep the answer only when the hand is ready. */
export async function askHints(session, auto = false) {
  const q = hintQuery(session);
  if (!q) {
    if (!auto) {
      session.hints = { state: "error", text: tr("hints.no_hand_of_yours_to_look_at_now") };
      session.redraw();
    }
    return;
  }
  if (auto && q.size !== 13) return;
  const key = JSON.stringify(q.body);
  session.hints = { state: "loading", key, size: q.size };
  session.redraw();
  let r;
  let fan = null;
  try {
    r = await api("/api/shanten", { method: "POST", body: q.body, auth: false });
    if (q.size === 14 && r.shanten === -1 && q.fans) { // a complete hand: how many fan has it?
      const hand = q.body.hand.slice();
      hand.splice(hand.lastIndexOf(q.drawn), 1);
      try {
        const f = await api("/api/fan", { method: "POST", auth: false, body: { melds: q.body.melds, hand,
          win_tile: q.drawn, self_drawn: true, seat_wind: q.body.seat_wind, prevalent_wind: q.body.prevalent_wind,
          rules: q.body.rules } });
        fan = f.total ?? f.points ?? null;
      } catch {
        fan = null;
      }
    }
  } catch (e) {
    if (session.hints && session.hints.key === key) {
      session.hints = auto ? null : { state: "error", text: e.message };
      session.redraw();
    }
    return;
  }
  if (!session.hints || session.hints.key !== key) return; // the hand moved on meanwhile
  if (auto && r.shanten !== 0) {
    session.hints = null;
    session.redraw();
    return;
  }
  const out = { state: "ready", key, size: q.size, fans: q.fans, shanten: r.shanten, complete: r.shanten === -1,
    fan, waits: [], keep: [] };
  if (q.size === 13 && r.shanten === 0) out.waits = waitsOf(q, r);
  if (q.size === 14) {
    const rows = q.fans ? (r.fan_discards || []).filter((d) => d.shanten === 0)
      : (r.discards || []).filter((d) => d.shanten === 0).map((d) => ({ ...d, waits: d.useful }));
    const seenRow = new Set();
    for (const d of rows) {
      if (seenRow.has(d.discard)) continue;
      seenRow.add(d.discard);
      out.keep.push({ discard: d.discard, waits: waitsOf(q, { waits: d.waits || (d.wait_fans || []).map((w) => w.tile),
        wait_fans: d.wait_fans }) });
    }
  }
  session.hints = out;
  session.redraw();
}

/** The discards that keep the hand ready, when their highlighting is switched on. */
export function keepsReady(session) {
  const hs = session.hints;
  if (!session.markReady || !hs || hs.state !== "ready" || hs.size !== 14) return null;
  return new Set(hs.keep.map((k) => k.discard));
}

/** One wait; `fans`: the fan minimum of a ruleset scored in fans, else null. */
function waitRow(w, fans) {
  const f = w.fan;
  const legal = f && f.discard >= fans;
  const selfOnly = f && !legal && f.self_drawn >= fans;
  return h(`li.wait${!fans ? "" : legal ? ".legal" : selfOnly ? ".selfonly" : ".short"}`,
    { dataset: { tile: w.tile, unseen: w.unseen, fan: f ? f.discard : "" } },
    tileEl(w.tile, { size: "sm" }),
    h("span.wname", bi(tileZh(w.tile), tileEn(w.tile))),
    h("span.unseen", { title: tr("hints.copies_not_yet_seen_ponds_melds") },
      L("hints.left", { n: w.unseen })),
    fans && f ? h("span.wfan", { title: tr("hints.fan_on_a_discard_self_drawn") },
      L("hints.fan", { n: f.discard }), f.self_drawn !== f.discard ? h("span.small", " ", L("hints.self_drawn", { n: f.self_drawn })) : null,
      legal ? h("span.badge.ok", L("hints.enough", { n: fans })) : selfOnly ? h("span.badge.rules", L("hints.self_draw_only"))
        : h("span.badge.bad", L("hints.not_enough", { n: fans }))) : null);
}

/** The hints card of the side panel: the 听 button and what the last answer said. */
export function hintsCard(session) {
  if (session.spectator || session.seat === null || !session.model.started) return null;
  const hs = session.hints;
  const card = h("div.card.hints-card#hints-card",
    h("h3", L("hints.waits"),
      h("button.btn.small#hint-btn", { title: tr("hints.what_am_i_waiting_for_only_what"),
        on: { click: () => askHints(session, false) } }, L("hints.ready"))));
  if (!hs) {
    card.append(h("p.small", tr("hints.press_to_see_your_waits_the_tile")));
    return card;
  }
  if (hs.state === "loading") {
    card.append(h("p.small#hints-status", tr("hints.asking")));
    return card;
  }
  if (hs.state === "error") {
    card.append(h("p.form-error#hints-status", hs.text));
    return card;
  }
  const box = h("div#hints", { dataset: { size: hs.size, shanten: hs.shanten } });
  card.append(box);
  if (hs.complete) {
    const short = hs.fans !== null && hs.fan !== null && hs.fan < hs.fans;
    box.append(h(`p.hint-line#hints-status${short ? ".short" : ""}`, { dataset: { fan: hs.fan ?? "" } },
      hs.fan === null ? L("hints.your_hand_is_complete")
        : short ? L("hints.short", { fan: hs.fan, min: hs.fans })
          : L("hints.win", { fan: hs.fan })));
  } else if (hs.size === 13) {
    if (hs.shanten === 0) {
      const legal = hs.waits.filter((w) => w.fan && w.fan.discard >= hs.fans).length;
      box.append(h("p.hint-line#hints-status", L("hints.ready_2"), " ",
        hs.fans ? L("hints.waits_legal", { n: hs.waits.length, legal, min: hs.fans })
          : L("hints.n_waits", { n: hs.waits.length })),
      h("ul.waits#hint-waits", hs.waits.map((w) => waitRow(w, hs.fans))));
    } else {
      box.append(h("p.hint-line#hints-status", L("hints.not_ready", { n: hs.shanten })));
    }
  }
  if (hs.size === 14 && !hs.complete || hs.size === 14 && hs.keep.length) {
    if (hs.keep.length) {
      box.append(h("p.hint-line", L("hints.keep", { n: hs.keep.length }),
        " ", h(`button.btn.small.toggle#hint-mark${session.markReady ? ".on" : ""}`, {
          "aria-pressed": session.markReady ? "true" : "false",
          on: { click: () => { session.markReady = !session.markReady; session.redraw(); } },
        }, L("hints.mark_them"))),
      h("div.keeps#hint-keeps", hs.keep.map((k) => h("div.keep", { dataset: { discard: k.discard } },
        h("div.keep-head", L("hints.discard"), " ", tileEl(k.discard, { size: "sm", title: tileName(k.discard) }), " → ",
          L("hints.waits_2")),
        h("ul.waits", k.waits.map((w) => waitRow(w, hs.fans)))))));
    } else if (!hs.complete) {
      box.append(h("p.hint-line#hints-status", L("hints.no_keep", { n: hs.shanten })));
    }
  }
  return card;
}
