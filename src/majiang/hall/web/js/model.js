// The table as one seat knows it, rebuilt from the event stream (docs/protocol.md "Events") and
// corrected by every `view` the server sends (prompts and snapshots).  The replay viewer uses the
// same model with every hand visible.

import { rulesetInfo } from "./rulesets.js";
import { sortTiles, tileEn, tileZh } from "./tiles.js";
import { tr } from "./i18n.js";

const WINDS = "ESWN";

function removeOne(list, t) {
  const i = list.lastIndexOf(t);
  if (i >= 0) list.splice(i, 1);
  return i >= 0;
}

/** Where a claimed tile came from, seen from `seat`: 1 上家, 2 对家, 3 下家. */
export function sourceOf(seat, src) {
  return { 3: 1, 2: 2, 1: 3 }[(src - seat + 4) % 4];
}

/** Live tiles in the wall right after the deal (before flower replacements); null when the server
 * did not describe the ruleset.  `ruleset`: the hand's options, which may change the dead wall. */
export function wallAtStart(rules, ruleset) {
  const info = rulesetInfo(rules);
  if (!info) return null;
  const dead = ruleset && ruleset.dead_wall_tiles !== undefined ? ruleset.dead_wall_tiles : info.dead_wall;
  return info.tiles - 53 - dead;
}

function emptySeat() {
  return { hand: null, count: 0, drawn: null, melds: [], discards: [], claimed: [], moqie: [], flowers: [] };
}

export class HandModel {
  /** me: the seat whose concealed tiles we receive (null for spectators); omniscient: replays */
  constructor(me = null, omniscient = false) {
    this.me = me;
    this.omniscient = omniscient;
    this.reset();
  }

  reset() {
    this.started = false;
    this.rules = null;
    this.ruleset = null;
    this.dealer = 0;
    this.prevalent = "E";
    this.handNo = 0;
    this.scores = [0, 0, 0, 0];
    this.wall = null;
    this.current = null;
    this.phase = "waiting";
    this.pending = null;
    this.lastDiscard = null;
    this.seedHash = null;
    this.seed = null;
    this.jing = null;
    this.dice = null;
    this.win = null;
    this.exhausted = false;
    this.falseWins = [];
    this.deltas = null;
    this.seats = [0, 1, 2, 3].map(emptySeat);
    this.n = 0; // the hand's events applied (or passed, for a spectator who joined mid-hand): the next one's index
    this.lastText = "";
  }

  seatWind(s) {
    return WINDS[(s - this.dealer + 4) % 4];
  }

  known(s) {
    return this.omniscient || s === this.me;
  }

  /** Apply a run of the hand's events; `from`: the index of its first event in the hand's log (an
   * `events` message says it; default: the run goes on from the last event applied).  The events the
   * model already holds are skipped, so that a run overlapping them is not applied a second time.
   * Returns the events applied; null when the run starts after a gap (events were missed: the caller
   * asks for a snapshot). */
  applyEvents(events, from = this.n) {
    if (from > this.n) return null;
    const fresh = events.slice(this.n - from);
    for (const e of fresh) this.apply(e);
    return fresh;
  }

  apply(e) {
    this.n += 1;
    const st = e.seat !== undefined && e.seat !== null ? this.seats[e.seat] : null;
    switch (e.type) {
      case "hand_start": {
        const me = this.me;
        this.reset();
        this.n = 1;
        this.me = me;
        this.started = true;
        this.rules = e.rules;
        this.ruleset = e.ruleset || null;
        this.dealer = e.dealer;
        this.prevalent = typeof e.prevalent === "number" ? WINDS[e.prevalent] : e.prevalent;
        this.handNo = e.hand_no || 0;
        this.scores = (e.scores || [0, 0, 0, 0]).slice();
        this.seedHash = e.seed_hash;
        if (e.seed) this.seed = e.seed;
        this.wall = wallAtStart(e.rules, e.ruleset);
        this.current = e.dealer;
        this.phase = "turn";
        break;
      }
      case "dice":
        this.dice = e.dice;
        break;
      case "deal":
        e.hands.forEach((tiles, s) => {
          const seat = this.seats[s];
          if (tiles && tiles.length && this.known(s)) {
            seat.hand = sortTiles(tiles);
            seat.count = tiles.length;
          } else {
            seat.hand = null;
            seat.count = e.counts ? e.counts[s] : tiles.length;
          }
        });
        break;
      case "jing":
        this.jing = { indicator: e.indicator, zheng: e.zheng, fu: e.fu };
        break;
      case "flower": {
        st.flowers.push(e.tile);
        const replaced = e.replacement !== null;
        if (replaced && this.wall !== null) this.wall -= 1;
        if (st.hand) {
          removeOne(st.hand, e.tile);
          if (e.replacement) {
            st.hand.push(e.replacement);
            if (st.drawn === e.tile) st.drawn = e.replacement;
          } else if (e.replacement === undefined) {
            st.hand.push(null); // not ours to know (should not happen for a known seat)
          }
          if (!replaced) st.count -= 1;
          if (st.drawn === e.tile) st.drawn = null;
          st.hand = sortTiles(st.hand);
        } else if (!replaced) {
          st.count -= 1;
        }
        this.lastText = tr("model.flower", { tile: { zh: tileZh(e.tile), en: tileEn(e.tile) } });
        break;
      }
      case "draw":
        if (this.wall !== null) this.wall -= 1;
        for (const other of this.seats) other.drawn = null;
        st.count += 1;
        if (st.hand && e.tile) {
          st.hand.push(e.tile);
          st.drawn = e.tile;
        } else {
          st.drawn = "?";
        }
        this.current = e.seat;
        this.phase = "turn";
        this.pending = null;
        break;
      case "discard":
        st.discards.push(e.tile);
        st.claimed.push(false);
        st.moqie.push(!!e.moqie); // 摸切: the tile just drawn, thrown (public, as at a real table)
        if (st.hand) {
          removeOne(st.hand, e.tile);
          st.hand = sortTiles(st.hand);
        }
        st.count -= 1;
        st.drawn = null;
        this.pending = { seat: e.seat, tile: e.tile };
        this.lastDiscard = { seat: e.seat, index: st.discards.length - 1 };
        this.current = e.seat;
        this.phase = "claim";
        break;
      case "chow":
      case "pung": {
        this.markClaimed(e.from);
        const take = e.type === "chow" ? [...e.tiles] : [e.tile, e.tile, e.tile];
        removeOne(take, e.tile);
        this.takeFromHand(st, take);
        const meld = e.type === "chow"
          ? { kind: "chow", tiles: e.tiles.slice(), claimed: e.tiles.indexOf(e.tile), concealed: false }
          : { kind: "pung", tiles: [e.tile, e.tile, e.tile], from: sourceOf(e.seat, e.from), concealed: false };
        st.melds.push(meld);
        st.drawn = null;
        this.current = e.seat;
        this.phase = "turn";
        this.pending = null;
        break;
      }
      case "kong": {
        const t = e.tile;
        if (e.kind === "exposed") {
          const src = this.pending ? this.pending.seat : this.lastDiscard ? this.lastDiscard.seat : (e.seat + 3) % 4;
          this.markClaimed(src);
          this.takeFromHand(st, [t, t, t]);
          st.melds.push({ kind: "kong", tiles: [t, t, t, t], from: sourceOf(e.seat, src), concealed: false });
        } else if (e.kind === "added") {
          const m = st.melds.find((x) => x.kind === "pung" && x.tiles[0] === t);
          this.takeFromHand(st, [t]);
          if (m) {
            m.kind = "kong";
            m.tiles = [t, t, t, t];
            m.added = true;
          }
        } else {
          this.takeFromHand(st, t ? [t, t, t, t] : [null, null, null, null]);
          st.melds.push({ kind: "kong", tiles: t ? [t, t, t, t] : [null, null, null, null], concealed: true });
        }
        st.drawn = null;
        this.current = e.seat;
        this.pending = null;
        break;
      }
      case "add_kong_declared":
        this.pending = { seat: e.seat, tile: e.tile };
        this.phase = "rob";
        break;
      case "robbed":
        this.takeFromHand(this.seats[e.from], [e.tile]);
        break;
      case "win":
        this.win = e;
        this.phase = "over";
        break;
      case "false_win":
        this.falseWins.push(e);
        break;
      case "item":
        // 偷天换日 / 移花接木, seen whole by their owner and in replays: a concealed tile exchanged with
        // the wall (others get only {seat, item}: nothing to change)
        if (st && st.hand && e.give && e.tile && e.found !== false) {
          removeOne(st.hand, e.give);
          st.hand.push(e.tile);
          if (st.drawn === e.give && !st.hand.includes(e.give)) st.drawn = e.tile;
          st.hand = sortTiles(st.hand);
        }
        break;
      case "payment":
        if (e.deltas) this.scores = this.scores.map((x, i) => x + (e.deltas[i] || 0));
        break;
      case "exhausted":
        this.exhausted = true;
        this.phase = "over";
        break;
      case "hand_end":
        this.phase = "over";
        this.seed = e.seed || this.seed;
        this.deltas = e.deltas || null;
        this.pending = null;
        break;
      default:
        break;
    }
  }

  markClaimed(src) {
    const s = this.seats[src];
    if (s && s.claimed.length) s.claimed[s.claimed.length - 1] = true;
    this.lastDiscard = null;
  }

  takeFromHand(st, tiles) {
    if (st.hand) {
      for (const t of tiles) if (t) removeOne(st.hand, t);
      st.hand = sortTiles(st.hand);
    }
    st.count -= tiles.length;
  }

  /** The server's view of this seat (SeatView.to_dict) is the truth: take everything from it. */
  applyView(v) {
    if (!v) return;
    this.started = true;
    this.me = v.seat;
    this.rules = v.rules;
    this.handNo = v.hand_no;
    this.dealer = v.dealer;
    this.prevalent = v.prevalent;
    this.phase = v.phase;
    this.current = v.current;
    this.wall = v.wall;
    this.scores = v.scores.slice();
    this.seedHash = v.seed_hash;
    this.pending = v.pending || null;
    if (v.public && v.public.jing) this.jing = v.public.jing;
    if (v.dice) this.dice = v.dice.slice(); // a spectator's public view names the hand's dice
    v.seats.forEach((sv, i) => {
      const st = this.seats[i];
      st.melds = sv.melds.map((m) => ({ ...m, tiles: m.tiles.slice() }));
      st.discards = sv.discards.slice();
      st.claimed = sv.claimed.slice();
      st.moqie = (sv.moqie || []).slice();
      st.flowers = sv.flowers.slice();
      st.count = sv.concealed_count;
      if (i === v.seat) {
        st.hand = sortTiles(v.hand);
        st.drawn = v.drawn || null;
      } else if (!(v.phase === "turn" && v.current === i)) {
        st.drawn = null;
      }
    });
    if (v.pending && v.phase === "claim") {
      const ps = this.seats[v.pending.seat];
      if (ps.discards[ps.discards.length - 1] === v.pending.tile) {
        this.lastDiscard = { seat: v.pending.seat, index: ps.discards.length - 1 };
      }
    }
    if (this.lastDiscard) {
      const s = this.seats[this.lastDiscard.seat];
      if (this.lastDiscard.index >= s.discards.length || s.claimed[this.lastDiscard.index]) this.lastDiscard = null;
    }
    if (v.seed) this.seed = v.seed;
  }
}
