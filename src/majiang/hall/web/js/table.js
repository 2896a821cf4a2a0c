// The live table: one TableSession (kept across page changes, fed by the WebSocket) and the table
// page that draws it: the stage, the prompt's legal actions, 托管, chat, the result screen.

import { api } from "./api.js";
import { HandModel } from "./model.js";
import { inviteCard } from "./friends.js";
import { fitStage, handTiles, markJing, meldEl, meldsEl, renderStage, seatDetail } from "./board.js";
import { bi, clear, confirmDialog, fmtInt, h, L, roomNames, signed, timeText, toast, WIND_EN, WIND_ZH } from "./util.js";
import { pointsPair, rulesetName } from "./rulesets.js";
import { ALL_KINDS, tileEl, tileName, tileZh } from "./tiles.js";
import { ITEM_NAMES, PATTERN_NAMES, TURN_ITEMS, itemErrorText, itemLabel, itemNames, itemZh, resultText, tileChoices,
  usedText } from "./items.js";
import { play as playSound } from "./sound.js";
import { msg, pair, t, tr } from "./i18n.js";
import { askHints, hintsCard, keepsReady } from "./hints.js";
import { addBots, botsWaitEl, leaveAfterButton, mayAddBots, noteTimers, playAgainButton, readyBar, readyStep,
  seatBotButton, tickBetween } from "./between.js";
import { attachToggles, togglesCard } from "./toggles.js";

/** Phones: the stage is scaled small, so the own hand and the action bar go below it, unscaled. */
const COMPACT = window.matchMedia("(max-width: 760px), (max-height: 500px)");
const LANDSCAPE_PHONE = window.matchMedia("(max-height: 500px)"); // the hints stay in the side panel
export function isCompact() {
  return COMPACT.matches;
}

const STATE_CHANGING = new Set(["hand_start", "draw", "discard", "chow", "pung", "kong", "add_kong_declared",
  "robbed", "win", "exhausted", "hand_end"]);

const ACTION_LABEL = Object.fromEntries(["win", "chow", "pung", "kong", "added_kong", "concealed_kong", "pass"]
  .map((a) => [a, pair(`action.${a}`)]));

const HU_EN = {
  平胡: "Basic hand", 碰碰胡: "All pungs", 小七对: "Seven pairs", 十三烂: "Thirteen rotten",
  七星十三烂: "Seven-star thirteen rotten", 七星七对: "Seven-star seven pairs", 德国: "German (no jing as wild)",
  德中德: "German among Germans", 德国七对加倍: "German seven pairs extra double", 精钓: "Jing single wait",
  杠开: "Win on a kong replacement", 天胡: "Heavenly hand", 地胡: "Earthly hand",
};

async function sha256hex(hex) {
  if (!hex || !window.crypto || !crypto.subtle || !/^[0-9a-f]*$/i.test(hex)) return null; // sealed: no seed
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

class TableSession {
  constructor() {
    this.app = null;
    this.forget();
    this.view = null; // the mounted page's redraw functions
  }

  forget() {
    this.inviteEl = null;
    this.tableId = null;
    this.seat = null;
    this.spectator = false;
    this.table = null;
    this.room = null;
    this.chat = [];
    this.model = new HandModel(null);
    this.handId = null;
    this.prompt = null;
    this.lastPrompt = null;
    this.sentAt = 0;
    this.myAuto = false;
    this.userAuto = false;
    this.result = null;
    this.resultOpen = false;
    this.code = null;
    this.expect = false;
    this.pendingCode = null;
    this.connState = "closed";
    this.seedHashShown = null;
    this.nextHandAt = null;
    this.balanceBefore = null;
    this.calls = []; // recent calls (碰, 杠 …) shown big next to the seat for a moment
    this.items = null; // at an items table: the server's latest {usable, inventory, golden_finger, queued}
    this.itemPick = null; // an item being set up in the picker: {item, tile, target}
    this.itemInfo = null; // what our last use did (item_used: only we see it)
    this.itemError = null;
    this.itemLog = []; // public lines: who used which item
    this.kicked = null; // logged in elsewhere: this page is disconnected (the reason)
    this.diceUntil = 0; // the dice of the hand start are shown until then
    this.hints = null; // 听牌 hints: {state: "loading"|"ready"|"error", ...} (hints.js)
    this.markReady = false; // highlight the discards that keep the hand ready
    this.readyAt = null; // between.js: the ready step's end, the bots' arrival (local deadlines)
    this.botsAt = null;
    this.leaveAfter = false; // 本局后离座 is on (the server's word)
    this.leftTable = false; // stood up at the hand's end: the result stays until it is closed
    this.updateNav();
  }

  updateNav() {
    const link = document.getElementById("nav-table");
    if (link) link.hidden = !this.tableId;
  }

  expectSeat(code = null) {
    this.expect = true;
    this.pendingCode = code;
  }

  expectSpectate() {
    this.expect = true;
    this.pendingCode = null;
  }

  redraw(what = "all") {
    if (this.view) this.view.redraw(what);
  }

  /** A table message for the table shown (a table left mid-hand must not leak into the next one):
   * every table message names its table
   * (`table_id`); one of a table left since — its hand played out by 托管 — is dropped. */
  mine(m) {
    return !!this.tableId && (!m.table_id || m.table_id === this.tableId);
  }

  attach(app) {
    this.app = app;
    const c = app.conn;
    c.on("welcome", (m) => {
      if (!m.table && this.tableId) {
        // the table is gone (it ended, or a waiting seat was freed while we were away)
        const wasHere = app.route === "table";
        this.forget();
        if (wasHere) {
          toast(tr("table.no_longer_seated"), "info");
          app.go("lobby");
        }
      }
    });
    c.on("_state", (s) => {
      this.connState = s.state;
      this.redraw("banner");
    });
    c.on("table", (m) => this.onSnapshot(m));
    c.on("table_info", (m) => {
      if (!this.mine(m) || m.table.id !== this.tableId) return;
      m.table.seats.forEach((s, i) => { // 金手指 is public: a seat's golden_finger turning on is its use
        const before = this.table && this.table.seats[i];
        if (s && s.golden_finger && before && before.account === s.account && !before.golden_finger) {
          this.logItem(i, "jinshouzhi");
        }
      });
      this.table = m.table;
      noteTimers(this, m.table);
      this.syncAuto();
      this.redraw();
    });
    c.on("leave_after", (m) => {
      this.leaveAfter = !!m.on;
      this.redraw();
    });
    c.on("seat_queued", () => toast(tr("table.seat_queued"), "info", 8000));
    c.on("events", (m) => this.onEvents(m));
    c.on("items", (m) => {
      if (!this.mine(m) || this.spectator) return;
      const { type: _type, table_id: _table, hand: _hand, ...status } = m;
      this.items = status;
      this.checkPick();
      this.redraw();
    });
    c.on("item_used", (m) => this.onItemUsed(m));
    c.on("prompt", (m) => this.onPrompt(m));
    c.on("hand_end", (m) => this.onHandEnd(m));
    c.on("match_end", (m) => {
      if (!this.mine(m)) return;
      this.matchEnd = { ...m, hand: this.result ? this.result.hand : null };
      this.redraw();
    });
    c.on("preset", (m) => { // a toggle answered the prompt (one shown when it was turned on goes)
      if (this.prompt && this.prompt.seq === m.seq) this.prompt = null;
    });
    attachToggles(c, () => this.redraw()); // 自动和 · 不吃碰杠 · 摸切 (toggles.js): redraws after
    c.on("auto", (m) => {
      if (!this.mine(m)) return;
      this.myAuto = m.on;
      if (m.on && m.reason === "timeouts") {
        toast(tr("table.auto_after_timeouts"), "error", 6000);
        this.userAuto = true;
      }
      if (m.on && m.reason === "not_ready") {
        toast(tr("table.auto_not_ready"), "error", 6000);
        this.userAuto = true;
      }
      if (m.on) this.prompt = null;
      this.redraw();
    });
    c.on("escape", (m) => {
      if (!this.mine(m)) return;
      const name = this.nameOf(m.seat);
      const a = msg("table.escape", { name, penalty: m.penalty });
      const b = m.compensation ? msg("table.escape_comp", { n: m.compensation }) : { zh: "", en: "" };
      toast(t(a.zh + b.zh, a.en + b.en), "info", 6000);
    });
    c.on("chat", (m) => {
      if (m.scope !== "table" || !this.mine(m)) return;
      this.chat.push(m);
      this.chat = this.chat.slice(-100);
      this.redraw("chat");
    });
    c.on("stood_up", (m) => {
      if (!this.mine(m)) return;
      if (m.code === "leave_after" || m.code === "not_ready") {
        toast(tr(m.code === "leave_after" ? "table.left_after" : "table.ready_missed"), "info", 8000);
        if (this.resultOpen) { // read the result first: closing it goes to the lobby
          this.leftTable = true;
          this.table = this.table && { ...this.table, ready: null };
          this.redraw();
          return;
        }
      } else {
        toast(tr("table.stood_up", { reason: m.reason || "" }), "error", 8000);
      }
      this.forget();
      if (app.route === "table") app.go("lobby");
    });
    c.on("error", (m) => {
      if (m.table_id && m.table_id !== this.tableId) return; // about a table left since
      if (this.lastPrompt && m.seq === this.lastPrompt.seq && (m.code === "illegal" || m.code === "bad_action")) {
        this.prompt = this.lastPrompt; // the prompt stays open
        this.redraw();
      }
      if (this.expect && ["full", "seat_taken", "balance", "busy", "not_found", "seated"].includes(m.code)) {
        this.expect = false;
      }
      const itemText = this.tableId && m.code !== "funds" ? itemErrorText(m) : null;
      if (itemText) {
        this.itemError = { code: m.code, text: itemText };
        this.redraw();
      }
    });
  }

  /** A second login took this account: stop the prompt and its timers; the page says so. */
  kick(reason) {
    this.kicked = reason || "you logged in somewhere else";
    this.prompt = null;
    this.lastPrompt = null;
    this.nextHandAt = null;
    this.connState = "stopped";
    this.redraw();
  }

  nameOf(seat) {
    const s = this.table && this.table.seats[seat];
    return s ? s.name : tr(`wind.${"ESWN"[seat]}`);
  }

  onSnapshot(m) {
    const app = this.app;
    const newTable = m.table.id !== this.tableId;
    this.tableId = m.table.id;
    this.seat = m.seat;
    this.spectator = !!m.spectator;
    this.table = m.table;
    noteTimers(this, m.table);
    this.leaveAfter = !!m.leave_after;
    this.leftTable = false;
    if (m.room) this.room = m.room;
    else if (!this.room || this.room.id !== m.table.room) this.loadRoom(m.table.room);
    this.chat = (m.chat || []).slice();
    if (newTable) {
      this.code = null;
      this.result = null;
      this.resultOpen = false;
      this.userAuto = false;
      this.myAuto = false;
      this.itemLog = [];
      this.itemInfo = null;
    }
    this.items = this.spectator ? null : m.items || null; // no items field: a table without items
    this.itemPick = null;
    this.itemError = null;
    if (this.pendingCode && m.table.private) this.code = this.pendingCode;
    this.pendingCode = null;
    if (m.view) {
      const model = new HandModel(m.seat);
      model.applyEvents(m.events || []);
      model.applyView(m.view);
      this.model = model;
      this.handId = m.hand;
      this.seedHashShown = m.view.seed_hash;
    } else if (m.events && m.events.length) { // a spectator's snapshot before its public view
      const model = new HandModel(this.spectator ? null : m.seat);
      model.applyEvents(m.events);
      this.model = model;
      this.handId = m.hand;
    } else if (newTable) {
      this.model = new HandModel(this.seat);
      this.handId = null;
    }
    this.prompt = null; // a pending prompt is re-sent right after the snapshot
    this.syncAuto(true);
    this.updateNav();
    if (this.spectator && m.delay_s) {
      toast(tr("table.spectating_delay", { s: m.delay_s }), "info", 6000);
    }
    // a page just opened (a reload, a new tab) goes straight back to the table the player sits at
    const go = this.expect || ["lobby", "login"].includes(app.route ?? bootRoute());
    this.expect = false;
    if (go && app.route !== "table") app.go("table");
    else this.redraw();
  }

  /** The spectator's snapshot carries no room: take its terms from the public room list. */
  async loadRoom(id) {
    try {
      const rooms = await api("/api/rooms", { auth: false });
      const room = rooms.find((r) => r.id === id);
      if (room && this.table && this.table.room === id) {
        this.room = room;
        this.redraw();
      }
    } catch { /* the side panel shows "?" */ }
  }

  /** After a reconnect the server keeps the seat in 托管; take it back unless the player chose it. */
  syncAuto(reconnected = false) {
    if (this.seat === null || !this.table) return;
    const me = this.table.seats[this.seat];
    if (!me) return;
    this.myAuto = !!me.auto;
    if (reconnected && me.auto && !this.userAuto && this.table.state === "playing") {
      this.app.conn.send({ type: "auto", on: false });
    }
  }

  onEvents(m) {
    if (!this.mine(m)) return;
    const from = typeof m.from === "number" ? m.from : this.model.n;
    if (m.hand !== this.handId) {
      const fresh = m.events.length > 0 && m.events[0].type === "hand_start";
      if (!fresh && !this.spectator) {
        this.resync(); // we missed the start of this hand: ask for a snapshot
        return;
      }
      this.handId = m.hand;
      this.model = new HandModel(this.spectator ? null : this.seat);
      if (!fresh) { // a spectator joining mid-hand sees the table from now on
        this.model.started = true;
        this.model.n = from;
      }
    }
    // each event once: a run overlapping what the model holds is trimmed, a gap asks for a snapshot
    const events = this.model.applyEvents(m.events, from);
    if (events === null) {
      if (this.spectator) return; // its snapshot comes with the next hand
      this.resync();
      return;
    }
    let changes = false;
    const now = performance.now();
    for (const e of events) {
      const word = callWord(e);
      if (word) {
        this.calls = this.calls.filter((c) => c.seat !== e.seat);
        this.calls.push({ seat: e.seat, word, until: now + 1500 });
        setTimeout(() => this.redraw("calls"), 1600);
      }
      if (e.type === "false_win") {
        const who = this.nameOf(e.seat);
        toast(tr("table.false_win", { who, kind: e.kind }), "error", 6000);
      }
      if (e.type === "item") this.logItem(e.seat, e.item);
      if (e.type === "dice") this.diceUntil = now + 3500;
      if (e.type === "discard") playSound("discard");
      if (["chow", "pung"].includes(e.type)) playSound("claim");
      if (["kong", "add_kong_declared"].includes(e.type)) playSound("kong");
      if (e.type === "win") playSound("win");
      if (e.type === "discard" && e.seat === this.seat && !this.spectator) this.hintsAfterDiscard = true;
      if (e.type === "hand_start") {
        for (const u of e.items || []) this.logItem(u.seat, u.item); // 乾坤大挪移 acts in the deal
        this.closeResult();
        this.result = null;
        this.seedHashShown = e.seed_hash;
        this.nextHandAt = null;
        this.hints = null;
        this.markReady = false;
      }
      if (STATE_CHANGING.has(e.type)) changes = true;
    }
    if (changes) {
      this.prompt = null; // a prompt is always sent after the events it follows
      this.dropTurnItems(); // … and it lists the turn's items again
      if (this.hints && this.hints.size === 14) this.hints = null; // the hand moved on
      this.markReady = false;
    }
    if (this.hintsAfterDiscard) { // after our own discard (at most): are we ready now?
      this.hintsAfterDiscard = false;
      this.askHints(true);
    }
    if (events.some((e) => e.type === "dice")) setTimeout(() => this.redraw(), 3600);
    this.redraw();
  }

  /** Ask POST /api/shanten about our own hand (hints.js); auto: after our discard, shown only when ready. */
  askHints(auto = false) {
    askHints(this, auto);
  }

  /** Ask for a fresh snapshot (sitting again at one's own table answers with one). */
  resync() {
    if (this.spectator || !this.tableId) return;
    this.app.conn.send({ type: "join", table: this.tableId });
  }

  onPrompt(m) {
    if (!this.mine(m)) return;
    if (m.view) {
      if (m.hand !== this.handId) {
        this.handId = m.hand;
        this.model = new HandModel(this.seat);
      }
      this.model.applyView(m.view);
    }
    if (this.kicked) return;
    this.prompt = { seq: m.seq, legal: m.legal, timeout: m.timeout_ms, deadline: performance.now() + m.timeout_ms,
      noWin: m.no_win || null };
    if (m.legal.some((a) => a.type === "discard")) playSound("turn");
    if (m.items && !this.spectator) {
      this.items = { inventory: {}, golden_finger: false, queued: null, ...this.items, usable: m.items };
      this.checkPick();
    }
    this.redraw();
  }

  async onHandEnd(m) {
    if (!this.mine(m)) return;
    if (m.hand != null && this.handId != null && m.hand !== this.handId) return; // not the hand shown
    this.result = m;
    this.resultOpen = true;
    this.prompt = null;
    this.model.seed = m.seed;
    this.model.phase = "over";
    const nextS = this.room ? this.room.next_hand_s : 5;
    this.nextHandAt = performance.now() + nextS * 1000;
    this.verified = null;
    this.redraw();
    const [hash, me] = await Promise.all([sha256hex(m.seed), this.app.refreshMe()]);
    this.verified = hash === null ? null : hash === m.seed_hash;
    this.balanceAfter = me ? me.balance : null;
    this.redraw();
  }

  closeResult() {
    this.resultOpen = false;
    if (this.leftTable) { // stood up at the hand's end (本局后离座): back to the lobby
      this.forget();
      this.app.go("lobby");
      return;
    }
    this.redraw();
  }

  act(action) {
    const p = this.prompt;
    if (!p) return;
    const ok = this.app.conn.send({ type: "action", seq: p.seq, action, table: this.tableId });
    if (!ok) {
      toast(tr("table.reconnecting_toast"), "error");
      return;
    }
    this.lastPrompt = p;
    this.prompt = null;
    this.markReady = false;
    this.dropTurnItems();
    this.sentAt = performance.now();
    this.redraw();
  }

  // ---- items (道具) ----------------------------------------------------------------------------------
  /** The turn's items were listed by the prompt that just closed; the next prompt lists them again. */
  dropTurnItems() {
    if (!this.items) return;
    this.items.usable = (this.items.usable || []).filter((u) => !TURN_ITEMS.has(u.item));
    this.checkPick();
  }

  usableItem(id) {
    return this.items ? (this.items.usable || []).find((u) => u.item === id) || null : null;
  }

  checkPick() {
    if (this.itemPick && !this.usableItem(this.itemPick.item)) this.itemPick = null;
  }

  /** An item button: straight away when it needs nothing, else the picker. */
  clickItem(id) {
    const u = this.usableItem(id);
    if (!u) return;
    if (!u.needs.length && !u.optional.length) {
      this.useItem(id, {});
      return;
    }
    this.itemPick = this.itemPick && this.itemPick.item === id ? null : { item: id, tile: null, target: null };
    this.redraw();
  }

  useItem(item, { tile = null, target = null }) {
    const msg = { type: "use_item", item };
    if (tile) msg.tile = tile;
    if (target) msg.target = target;
    this.itemError = null;
    this.app.conn.send(msg);
  }

  onItemUsed(m) {
    if (!this.mine(m)) return;
    this.itemInfo = { item: m.item, text: resultText(m.item, m.result || m) };
    this.itemError = null;
    this.itemPick = null;
    if (m.item === "toutian" || m.item === "yihua") this.prompt = null; // withdrawn: a new prompt follows
    this.redraw();
  }

  logItem(seat, item) {
    const text = usedText(this.nameOf(seat), item);
    this.itemLog.push({ at: Date.now() / 1000, seat, item, text });
    this.itemLog = this.itemLog.slice(-30);
    if (this.view) this.view.banner(text);
  }

  discard(tile) {
    const p = this.prompt;
    if (!p) return;
    const a = p.legal.find((x) => x.type === "discard" && x.tile === tile);
    if (a) this.act(a);
  }

  setAuto(on) {
    this.userAuto = on;
    this.app.conn.send({ type: "auto", on });
  }

  async stand() {
    const playing = this.table && this.table.state === "playing" && !this.spectator;
    if (playing) {
      const pen = this.room ? this.room.escape_penalty : "?";
      const leave = await confirmDialog(...pair("table.escape_ask", { pen }), ...pair("table.leave"));
      if (!leave) return;
    }
    this.app.conn.send({ type: "stand" });
    this.forget();
    this.app.go("lobby");
  }
}

export const session = new TableSession();

/** The page the address names before the first render (a snapshot may come first): "" is the lobby. */
function bootRoute() {
  const name = decodeURIComponent(location.hash.replace(/^#\/?/, "")).split("/")[0];
  return ["", "lobby", "login", "table"].includes(name) ? "lobby" : name;
}

/** The word called at the table for an event: 吃 碰 杠 补花 和. */
function callWord(e) {
  switch (e.type) {
    case "chow": case "pung": case "kong": case "flower": return pair(`call.${e.type}`);
    case "add_kong_declared": return [msg("action.added_kong").zh, msg("call.kong").en];
    case "win": return pair(e.from === null || e.from === undefined ? "call.self_drawn" : "call.win");
    default: return null;
  }
}

function callsEl() {
  const now = performance.now();
  session.calls = session.calls.filter((c) => c.until > now);
  return session.calls.map((c) => {
    const r = session.seat === null ? c.seat : (c.seat - session.seat + 4) % 4;
    return h(`div.call.pos${r}${c.word[0] === "和" ? ".win" : ""}`, { dataset: { call: c.word[0] } },
      h("span.zh", c.word[0]), h("span.en", c.word[1]));
  });
}

// ---- the page ------------------------------------------------------------------------------------------

function countdownEl() {
  return h("span.countdown", { i18n: { title: "table.time_left" } }, "");
}

function tickCountdowns() {
  const p = session.prompt;
  for (const el of document.querySelectorAll(".countdown")) {
    if (!p) {
      el.textContent = "";
      continue;
    }
    const left = Math.max(0, (p.deadline - performance.now()) / 1000);
    el.textContent = `${Math.ceil(left)}s`;
    el.classList.toggle("urgent", left < 3.5);
  }
  const nx = document.getElementById("next-hand-in");
  if (nx && session.leftTable) { // the result stays readable, but no next hand is coming for this player
    nx.replaceChildren(L("table.no_next_hand"));
    nx.classList.add("left");
    return;
  }
  if (tickBetween(session)) return; // the ready step's countdown (between.js)
  if (nx && session.nextHandAt) {
    const left = Math.max(0, Math.ceil((session.nextHandAt - performance.now()) / 1000));
    nx.replaceChildren(left > 0 ? L("table.next_hand_in", { n: left }) : L("table.next_hand_now"));
  }
}

function relName(seat) {
  if (session.seat === null) return ["", ""];
  return pair(`rel.${(seat - session.seat + 4) % 4}`);
}

function actionButton(a, label, cls = "") {
  const [zh, en] = label;
  const b = h(`button.act${cls ? "." + cls : ""}`, {
    dataset: { action: a.type, tile: a.tile || "" },
    title: `${zh} ${en}${a.tile ? " " + tileName(a.tile) : ""}`,
    on: { click: () => session.act(a) },
  }, h("span.zh", zh), h("span.en", en));
  return b;
}

function renderActionBar() {
  const p = session.prompt;
  const m = session.model;
  const bar = h("div.actionbar#actionbar");
  if (session.spectator || session.kicked) return null;
  const inHand = m.started && m.phase !== "over";
  if (!inHand) {
    const t = session.table;
    const free = t ? t.seats.filter((s) => !s).length : 0;
    if (readyStep(session) && !session.leftTable) return readyBar(session);
    if (t && t.state === "waiting" && session.seat !== null) {
      bar.append(h("span.hint", L("table.waiting_players", { n: 4 - free })));
      const wait = botsWaitEl(session);
      if (wait) bar.append(wait);
      if (free && mayAddBots(session)) {
        bar.append(h("button.act#add-bots", { on: { click: () => session.app.conn.send({ type: "add_bots" }) } },
          L("table.add_bots")));
      }
      return bar;
    }
    return null;
  }
  if (session.myAuto && !p) {
    bar.append(h("span.hint", L("table.auto_on")),
      h("button.act#take-over", { on: { click: () => session.setAuto(false) } }, L("table.take_over")));
    return bar;
  }
  if (!p) return null;
  const legal = p.legal;
  const discards = legal.filter((a) => a.type === "discard");
  const chows = legal.filter((a) => a.type === "chow");
  if (discards.length) {
    bar.classList.add("turn");
    bar.append(h("span.hint#your-turn", L("table.your_turn")));
  } else if (m.pending) {
    const who = relName(m.pending.seat);
    const said = msg(m.phase === "rob" ? "table.offer_rob" : "table.offer_discard", { who: { zh: who[0], en: who[1] } });
    bar.append(h("span.offer", h("span.zh", said.zh), tileEl(m.pending.tile, { size: "sm" }), h("span.en", said.en)));
  }
  for (const a of legal) {
    if (a.type === "win") {
      bar.append(actionButton(a, discards.length ? pair("action.tsumo") : ACTION_LABEL.win, "win"));
    }
  }
  if (p.noWin) { // the hand is complete, but not a win: say why there is no 和 button
    bar.append(h("span.hint.no-win#no-win", L("table.no_win", p.noWin)));
  }
  if (chows.length === 1) bar.append(actionButton(chows[0], ACTION_LABEL.chow));
  if (chows.length > 1) {
    const box = h("div.chow-choices", h("span.act-label", L("table.chow_label")));
    for (const a of chows) {
      box.append(h("span.chow-choice", {
        dataset: { action: "chow", tiles: a.tiles.join(",") },
        title: `${tr("action.chow")} ${a.tiles.map(tileZh).join("")}`,
        role: "button",
        tabIndex: 0,
        on: { click: () => session.act(a) },
      }, a.tiles.map((t) => tileEl(t, { size: "sm", cls: t === a.tile ? "dim" : "" }))));
    }
    bar.append(box);
  }
  for (const a of legal) {
    if (a.type === "pung") bar.append(actionButton(a, ACTION_LABEL.pung));
    if (a.type === "kong") bar.append(actionButton(a, ACTION_LABEL.kong, "kong"));
  }
  for (const a of legal) {
    if (a.type === "concealed_kong" || a.type === "added_kong") {
      const b = actionButton(a, ACTION_LABEL[a.type], "kong");
      b.append(tileEl(a.tile, { size: "xs" }));
      bar.append(b);
    }
  }
  for (const a of legal) if (a.type === "pass") bar.append(actionButton(a, ACTION_LABEL.pass, "pass"));
  bar.append(countdownEl());
  return bar;
}

const LANG_FREE = { dataset: { langFree: "" } }; // fan names: the same in every language

function fanRows(fans) {
  const rows = [];
  for (const f of fans || []) {
    const zh = f.zh || f.name;
    const en = f.zh ? (f.name || HU_EN[f.zh] || "") : (HU_EN[f.name] || "");
    if ("points" in f) {
      rows.push(h("tr.fan", h("td", LANG_FREE, zh), h("td", LANG_FREE, en), h("td.num", String(f.points)), h("td.num", `×${f.count || 1}`),
        h("td.num", String(f.points * (f.count || 1)))));
    } else {
      rows.push(h("tr.fan", h("td", LANG_FREE, zh), h("td", LANG_FREE, en), h("td.num", `×${f.factor}`), h("td.num", ""), h("td.num", "")));
    }
  }
  return rows;
}

/** The winner's hand: concealed tiles, melds, the winning tile apart. */
export function winHandEl(win) {
  return h("div.winhand",
    h("div.concealed", (win.hand || []).map((t) => tileEl(t, { size: "md" }))),
    h("div.melds", (win.melds || []).map((mm) => meldEl(mm, "md"))),
    h("span.wintile", tileEl(win.tile, { size: "md", title: `${tr("table.winning_tile")}: ${tileName(win.tile)}` })));
}

// 东风战 / 全庄 (docs/ratings.md): the running totals after each hand, the places and 段位 at the match's end
function matchBox(r, names) {
  const m = r.match;
  if (!m) return null;
  const end = session.matchEnd && session.matchEnd.hand === r.hand ? session.matchEnd : null;
  const kind = msg(m.of === 4 ? "match.east" : "match.full");
  const rows = [0, 1, 2, 3].map((s) => h(`tr${s === session.seat ? ".me" : ""}`, { dataset: { seat: s } },
    h("td", { dataset: { langFree: "" } }, names[s]), h("td.num", signed(m.totals[s])),
    end ? h("td.num", `${end.places[s]}`) : null,
    end ? h("td.num", end.ranks[s] ? [`${signed(end.points[s])} → `, bi(end.ranks[s].after.zh, end.ranks[s].after.en)] : "—") : null));
  return h("div.match#match-box",
    h("h3", end ? L("match.over", { kind }) : L("match.hand", { kind, hand: m.hand, of: m.of })),
    h("table.match-totals",
      h("thead", h("tr", h("th", L("table.player")), h("th.num", L("table.total")),
        end ? h("th.num", L("table.place")) : null, end ? h("th.num", L("table.rank_points")) : null)),
      h("tbody", rows)));
}

function renderResult() {
  const r = session.result;
  if (!r || !session.resultOpen) return null;
  const win = r.result && r.result.win;
  const names = [0, 1, 2, 3].map((s) => session.nameOf(s));
  const dialog = h("div.result#result", { role: "dialog", "aria-label": tr("table.result") });
  let box = h("div.res-a");
  dialog.append(box);
  if (win) {
    const how = win.from === null || win.from === undefined
      ? L("table.self_drawn") : L("table.dealt_in", { name: names[win.from] });
    box.append(h("h2", L("table.win_title", { name: names[win.seat] })),
      h("p.how", how, ` · ${win.points} `, bi(...pointsPair(session.model.rules))),
      winHandEl(win));
    const isMcr = (win.fans || []).some((f) => "points" in f);
    box.append(h("table.fans#fans",
      h("thead", h("tr", h("th", h("span.zh", msg("table.fan").zh)), h("th", h("span.en", msg("table.fan").en)), h("th.num", isMcr ? L("table.points") : L("table.factor")),
        h("th.num", isMcr ? L("table.count") : ""), h("th.num", isMcr ? L("table.subtotal") : ""))),
      h("tbody", fanRows(win.fans)),
      h("tfoot", h("tr.total", h("td", h("span.zh", msg("table.fan_total").zh)), h("td", h("span.en", msg("table.fan_total").en)), h("td.num", ""), h("td.num", ""),
        h("td.num#fan-total", String(win.points))))));
  } else {
    const moved = (r.scores || []).some((x) => x !== 0);
    box.append(h("h2", L("table.exhaustive_draw_nobody_won")),
      h("p.how", moved ? L("table.no_win_kong_and_other_payments_s")
        : L("table.no_score_moves_the_table_fee_is")));
  }
  box = h("div.res-b");
  dialog.append(box);
  const seatRows = [0, 1, 2, 3].map((s) => {
    const sc = r.scores ? r.scores[s] : 0;
    const co = r.coins ? r.coins[s] : 0;
    const me = s === session.seat;
    const w = session.model.seatWind(s);
    return h(`tr${me ? ".me" : ""}`, { dataset: { seat: s } },
      h("td", bi(WIND_ZH[w], WIND_EN[w])),
      h("td.pname", h("span", { dataset: { langFree: "" } }, names[s]), me ? L("table.you") : ""),
      h(`td.num.score${sc > 0 ? ".pos" : sc < 0 ? ".neg" : ""}`, signed(sc)),
      h(`td.num.coin-delta${co > 0 ? ".pos" : co < 0 ? ".neg" : ""}`, { dataset: { coins: co } }, signed(co)));
  });
  const room = session.room;
  box.append(h("table.seats-result#seats-result",
    h("thead", h("tr", h("th", L("table.seat")), h("th", L("table.player")), h("th.num", L("table.score")),
      h("th.num", L("table.coins"), room ? h("span.terms", ` (N=${room.coefficient}, A=${room.fee})`) : null))),
    h("tbody", seatRows)));
  if (session.seat !== null && r.coins) {
    const mine = r.coins[session.seat];
    box.append(h("p.mycoins#my-coins", { dataset: { coins: mine } },
      L("table.your_coins"), " ", h(`b.${mine >= 0 ? "pos" : "neg"}`, signed(mine)),
      session.balanceAfter !== undefined && session.balanceAfter !== null
        ? h("span", " → ", L("table.balance"), ` ${fmtInt(session.balanceAfter)}`) : null));
  }
  const verify = session.verified === true
    ? h("span.verify.ok", "✓ ", h("span", LANG_FREE, "sha256"), L("table.verified"), " ", L("table.the_shuffle_was_committed_before"))
    : session.verified === false ? h("span.verify.bad", L("table.verify_bad")) : null;
  const mb = matchBox(r, names);
  if (mb) box.append(mb);
  box.append(h("div.seed",
    h("div", h("b", L("table.seed_hash_shown_at_the_start"), " "), h("span#seed-hash", LANG_FREE, r.seed_hash)),
    h("div", h("b", L("table.seed_revealed"), " "), h("span#seed", r.seed ? LANG_FREE : null, r.seed || (r.sealed
      ? L("table.duplicate_walls_revealed_when_th") : ""))),
    verify));
  box.append(h("div.buttons",
    h("span.next#next-hand-in", ""),
    playAgainButton(session),
    r.hand ? h("a.btn#replay-link", { href: `#replay/${r.hand}`, target: "_blank", rel: "noopener" },
      L("table.replay")) : null,
    r.hand ? h("a.btn#review-link", { href: `#replay/${r.hand}/review`, target: "_blank", rel: "noopener" },
      L("table.review")) : null,
    h("button.btn.primary#close-result", { on: { click: () => session.closeResult() } },
      session.leftTable ? L("table.back_to_the_lobby") : L("table.continue"))));
  return h("div.overlay.result-overlay", dialog);
}

function renderSide(side) {
  clear(side);
  const tb = session.table;
  const room = session.room;
  const m = session.model;
  if (!tb) {
    side.append(h("p.empty", L("table.not_seated")), h("a.btn", { href: "#lobby" }, L("table.lobby")));
    return;
  }
  const rules = room ? rulesetName(room.rules) : ["", ""];
  if (session.kicked) {
    side.append(h("div.card.kicked-card", h("h3", L("table.disconnected")),
      h("p.small", L("table.you_logged_in_somewhere_else_thi")),
      h("button.btn.primary#kicked-reload", { on: { click: () => location.reload() } }, L("table.continue_here"))));
  }
  const hints = isCompact() && !LANDSCAPE_PHONE.matches ? null : hintsCard(session); // portrait phones: in the dock
  if (hints) side.append(hints);
  side.append(h("div.card.table-card",
    h("h3", room ? bi(...roomNames(room)) : tb.room),
    h("div.small", L("table.terms", { rules: { zh: rules[0], en: rules[1] }, n: room ? room.coefficient : "?", a: room ? room.fee : "?" })),
    h("div.small", L("table.table_label"), " ", h("span", LANG_FREE, `#${tb.id}`), " · ",
      tb.private ? [L("table.private_short"), " · "] : null, L("table.hands_played", { hands: tb.hands })),
    session.code ? h("div.code#table-code", L("table.code"), " ", h("b", session.code), " ", h("span.small", L("table.share"))) : null,
    tb.private && !session.code ? h("div.small", L("table.private")) : null,
    session.spectator ? h("div.flag.auto", L("table.spectating", { s: room ? room.spectate_delay_s : "?" })) : null,
    m.started && m.dice ? h("div.small#dice-line", L("table.dice", { dice: m.dice.join(" + ") })) : null,
    (m.seedHash || session.seedHashShown)
      ? h("div.small.mono", { i18n: { title: "table.seed_hash_title" } },
        L("table.seed_hash_live"), " ", h("span#seed-hash-live", LANG_FREE, (m.seedHash || session.seedHashShown).slice(0, 16) + "…"))
      : null));
  if (session.code && !session.spectator && session.app.me && session.app.me.kind === "player") {
    session.inviteEl = session.inviteEl || inviteCard(); // a private table: bring a friend (asked once a table)
    side.append(session.inviteEl);
  }
  const seats = h("div.card.seat-list#seat-list", h("h3", L("table.seats")));
  tb.seats.forEach((s, i) => {
    const w = m.started ? m.seatWind(i) : "ESWN"[i];
    seats.append(h(`div.seat-line${i === session.seat ? ".me" : ""}`,
      h("span.wind", L(`wind1.${w}`)),
      s ? h("span.sname", { dataset: { langFree: "" } }, s.name) : h("span.sname", L("table.empty")),
      s && s.bot ? h("span.flag.bot", L("bot")) : null,
      s && s.auto && !s.bot ? h("span.flag.auto", L("auto")) : null,
      s && !s.online ? h("span.flag.off", L("offline")) : null,
      s && tb.ready && tb.ready[i] ? h("span.flag.ready", { title: tr("table.ready"), "aria-label": tr("table.ready") }, "✓") : null,
      seatBotButton(session, i),
      m.started ? h("span.score", String(m.scores[i])) : null));
  });
  side.append(seats);
  const buttons = h("div.card.controls");
  if (!session.spectator) {
    const autoBtn = h(`button.btn.toggle#auto-toggle${session.myAuto ? ".on" : ""}`, {
      "aria-pressed": session.myAuto ? "true" : "false",
      i18n: { title: "table.auto_title" },
      on: { click: () => session.setAuto(!session.myAuto) },
    }, L(session.myAuto ? "table.auto_btn_on" : "table.auto_btn"));
    buttons.append(autoBtn);
    if (tb.state === "waiting" && tb.seats.some((s) => !s) && mayAddBots(session)) {
      buttons.append(h("button.btn#add-bots-side", { on: { click: () => addBots(session) } },
        L("table.add_bots")));
    }
    const leave = leaveAfterButton(session);
    if (leave) buttons.append(leave);
  }
  buttons.append(h("button.btn.danger#stand", { on: { click: () => session.stand() } },
    L(session.spectator ? "table.leave" : "table.stand")));
  side.append(buttons);
  if (!session.spectator && session.seat !== null) side.append(togglesCard((msg) => session.app.conn.send(msg)));
  const items = renderItems();
  if (items) side.append(items);
  const log = h("div.chat-log#table-chat-log");
  const input = h("input#table-chat-input", { maxLength: 200, i18n: { placeholder: "table.chat_placeholder" } });
  const send = () => {
    const text = input.value.trim();
    if (!text) return;
    session.app.conn.send({ type: "chat", scope: "table", text });
    input.value = "";
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") send();
  });
  side.append(h("div.card.chat", h("h3", L("table.chat")), log,
    h("div.row", input, h("button.btn#table-chat-send", { on: { click: send } }, L("lobby.send")))));
  renderChat(log);
}

/** The item card: the bar of owned items (enabled exactly when the server lists them as usable), the
 * picker, what our last use did, item errors, and the public log of uses. */
function renderItems() {
  const st = session.items;
  if (!st && !session.itemLog.length) return null;
  const card = h("div.card.items-card#item-card", h("h3", L("table.items"),
    st && st.golden_finger ? h("span.flag.golden#golden-on", { title: tr("table.golden") }, "☟ ", L("table.golden")) : null));
  if (st) {
    const inv = st.inventory || {};
    const bar = h("div.item-bar#item-bar");
    for (const id of Object.keys(ITEM_NAMES)) {
      const u = session.usableItem(id);
      const n = u ? u.count : inv[id] || 0;
      if (!n) continue;
      bar.append(h(`button.item-btn${session.itemPick && session.itemPick.item === id ? ".on" : ""}`, {
        dataset: { item: id, count: n },
        disabled: !u,
        title: tr(u ? "table.use_item" : "table.item_not_now", { item: itemNames(id) }),
        on: { click: () => session.clickItem(id) },
      }, h("span.zh", itemZh(id)), h("span.en", ITEM_NAMES[id][1]), h("span.n", `×${n}`)));
    }
    if (!bar.childElementCount) bar.append(h("span.small", L("table.no_items")));
    card.append(bar);
    if (st.queued) {
      const [zh, en] = PATTERN_NAMES[st.queued.pattern] || pair("item.random");
      card.append(h("div.small#item-queued", L("table.item_queued", { item: itemNames("qiankun"), pattern: { zh, en } })));
    }
    const picker = session.itemPick && pickerEl(session.itemPick);
    if (picker) card.append(picker);
  }
  if (session.itemInfo) card.append(h("div.item-info#item-info", { dataset: { item: session.itemInfo.item } }, session.itemInfo.text));
  if (session.itemError) card.append(h("div.form-error#item-error", { dataset: { code: session.itemError.code } }, session.itemError.text));
  if (session.itemLog.length) {
    card.append(h("div.item-log#item-log", session.itemLog.slice(-8).map((l) =>
      h("div.chat-line", { dataset: { item: l.item } }, h("span.t", timeText(l.at)), l.text))));
  }
  return card;
}

function pickerEl(p) {
  const u = session.usableItem(p.item);
  if (!u) return null;
  const wants = [...u.needs, ...u.optional];
  const set = (k, v) => {
    p[k] = v;
    session.redraw();
  };
  const box = h("div.item-picker#item-picker", { dataset: { item: p.item } }, h("b", L("table.use_item", { item: itemNames(p.item) })));
  if (wants.includes("tile")) {
    const mine = (session.model.seats[session.seat] || {}).hand || [];
    box.append(h("div.small", L("table.give_tile")),
      tileChoices("pick-give", [...new Set(mine.filter(Boolean))], p.tile, (t) => set("tile", t)));
  }
  if (wants.includes("target") && p.item === "qiankun") {
    box.append(h("div.small", L("table.pick_pattern")), h("div.pick-row.pick-pattern",
      [null, ...Object.keys(PATTERN_NAMES)].map((id) => h(`button.btn.small${p.target === id ? ".on" : ""}`, {
        dataset: { pattern: id || "" }, on: { click: () => set("target", id) },
      }, id ? bi(...PATTERN_NAMES[id]) : L("table.random")))));
  } else if (wants.includes("target")) {
    const toutian = p.item === "toutian";
    box.append(h("div.small", L(toutian ? "table.want_tile" : "table.look_tile")),
      tileChoices("pick-target", toutian ? ALL_KINDS.filter((t) => t !== p.tile) : ALL_KINDS, p.target,
        (t) => set("target", t)));
  }
  const ready = u.needs.every((k) => p[k]);
  box.append(h("div.row",
    h("button.btn.primary.small#item-confirm", { disabled: !ready, on: { click: () => session.useItem(p.item, p) } },
      L("table.use")),
    h("button.btn.small.ghost#item-cancel", {
      on: {
        click: () => {
          session.itemPick = null;
          session.redraw();
        },
      },
    }, L("shop.cancel"))));
  return box;
}

function renderChat(log) {
  if (!log) return;
  clear(log);
  for (const c of session.chat.slice(-50)) {
    log.append(h("div.chat-line", h("span.t", timeText(c.at)),
      h("b", {
        title: tr("lobby.mute_title"),
        on: {
          click: () => {
            if (session.app.me && c.account === session.app.me.id) return;
            confirmDialog(...pair("table.mute_ask", { name: c.from }), ...pair("lobby.mute")).then((yes) => {
              if (yes) session.app.conn.send({ type: "mute", account: c.account, on: true });
            });
          },
        },
      }, c.from), ": ", c.text));
  }
  log.scrollTop = log.scrollHeight;
}

export function mount(root, _arg, app) {
  const stageBox = h("div.stage-box#stage-box");
  const dock = h("div.dock#dock"); // phones: our hand and the action bar, below the scaled stage
  const side = h("aside.table-side#table-side");
  root.append(h("section.table-page", h("div.table-main", stageBox, dock), side));
  let stage = null;
  let chatFocus = false;

  function drawDock(compact, opts) {
    clear(dock);
    document.body.classList.toggle("compact", compact);
    const m = session.model;
    if (!compact || session.seat === null || session.spectator || !m.started) return;
    const me = session.seat;
    const hand = h("div.my-hand#my-hand", { dataset: { seat: me } }, ...handTiles(m, me, 0, { ...opts, bottomSize: "lg" }),
      meldsEl(m, me, "md", { ...opts, me }));
    if (opts.canDiscard) hand.classList.add("myturn");
    markJing(hand, m.jing);
    dock.append(hand);
    const hints = LANDSCAPE_PHONE.matches ? null : hintsCard(session);
    if (hints) dock.append(hints);
  }

  function markKeeps(root) {
    const keep = keepsReady(session);
    if (!keep) return;
    for (const img of root.querySelectorAll(".strip.pos0 .tile[data-tile], #my-hand .concealed .tile[data-tile], #my-hand .drawn .tile[data-tile]")) {
      if (keep.has(img.dataset.tile)) img.classList.add("keeps-ready");
    }
  }

  function drawStage() {
    const m = session.model;
    const p = session.prompt;
    const canDiscard = p ? new Set(p.legal.filter((a) => a.type === "discard").map((a) => a.tile)) : null;
    const names = session.table ? session.table.seats : [null, null, null, null];
    const inHand = m.started && m.phase !== "over";
    const waiting = session.table && session.table.state === "waiting" && !inHand;
    const free = session.table ? session.table.seats.filter((s) => !s).length : 4;
    const now = performance.now();
    const fresh = session.calls.filter((c) => c.until > now && ["吃", "碰", "杠", "加杠"].includes(c.word[0]));
    const opts = {
      bottom: session.seat ?? 0,
      noRel: session.spectator,
      names,
      canDiscard: canDiscard && canDiscard.size ? canDiscard : null,
      onDiscard: (t) => session.discard(t),
      countdown: p ? countdownEl() : null,
      waiting: waiting ? L("table.waiting_players", { n: 4 - free }) : null,
      deltas: session.result && session.resultOpen ? session.result.scores : null,
      dice: m.dice && now < session.diceUntil && inHand ? m.dice : null,
      fresh,
    };
    const next = renderStage(m, opts);
    if (canDiscard && canDiscard.size) next.querySelector(".strip.pos0")?.classList.add("myturn");
    drawDock(isCompact(), opts);
    markKeeps(next);
    markKeeps(dock);
    next.append(...callsEl());
    if (stage) stage.replaceWith(next);
    else stageBox.append(next);
    stage = next;
    fitStage(stageBox, stage);
    // a tap on a seat's pond, plate or melds opens them at a readable size (phones: the stage is scaled down)
    for (const el of stage.querySelectorAll(".pond, .plate, .strip:not(.pos0)")) {
      el.addEventListener("click", () => { detailSeat = Number(el.dataset.seat); drawDetail(); });
    }
    drawDetail();
  }

  let detailSeat = null;
  function drawDetail() {
    document.getElementById("seat-detail")?.remove();
    if (detailSeat === null || !session.model.seats[detailSeat]) return;
    const names = session.table ? session.table.seats : [null, null, null, null];
    document.body.append(seatDetail(session.model, detailSeat, names, () => { detailSeat = null; drawDetail(); }));
  }

  function drawOverlays() {
    for (const el of stageBox.querySelectorAll(".actionbar, .overlay, .conn-banner")) el.remove();
    const bar = renderActionBar();
    // inside the stage: it scales with the table, just above our hand; on phones above the dock's hand
    if (bar && isCompact()) dock.prepend(bar);
    else if (bar) stage.append(bar);
    const res = renderResult();
    if (res) stageBox.append(res);
    drawBanner();
    tickCountdowns();
  }

  function drawBanner() {
    for (const el of stageBox.querySelectorAll(".conn-banner")) el.remove();
    const s = session.connState;
    if (session.kicked) {
      stageBox.append(h("div.conn-banner#kicked", L("table.logged_in_elsewhere_this_page_is")));
    } else if (s === "waiting" || s === "connecting") {
      stageBox.append(h("div.conn-banner#reconnecting", L("table.reconnecting")));
    } else if (s === "stopped") {
      stageBox.append(h("div.conn-banner", L("table.disconnected_reload")));
    }
  }

  session.view = {
    banner(text) { // an item was used: a line over the table for a few seconds
      const el = h("div.item-banner", text);
      stageBox.append(el);
      setTimeout(() => el.remove(), 4000);
    },
    redraw(what) {
      if (what === "chat") {
        renderChat(document.getElementById("table-chat-log"));
        return;
      }
      if (what === "calls") {
        if (!stage) return;
        for (const el of stage.querySelectorAll(".call")) el.remove();
        stage.append(...callsEl());
        return;
      }
      if (what === "banner") {
        drawBanner();
        return;
      }
      drawStage();
      drawOverlays();
      const active = document.activeElement;
      chatFocus = active && active.id === "table-chat-input";
      const draft = chatFocus ? active.value : null;
      renderSide(side);
      if (chatFocus) {
        const input = document.getElementById("table-chat-input");
        input.value = draft;
        input.focus();
      }
    },
  };

  if (!session.tableId) {
    stageBox.append(h("div.empty-table",
      h("p", L("table.you_are_not_at_a_table")),
      h("a.btn.primary", { href: "#lobby" }, L("table.go_to_the_lobby"))));
    renderSide(side);
  } else {
    session.view.redraw();
  }
  let wasCompact = isCompact();
  const onResize = () => {
    if (isCompact() !== wasCompact && session.view) { // the phone layout moves the hand and the action bar
      wasCompact = isCompact();
      session.view.redraw();
    }
    if (stage) fitStage(stageBox, stage);
  };
  window.addEventListener("resize", onResize);
  const ticker = setInterval(tickCountdowns, 250);
  const onKey = (e) => {
    if (e.target && ["INPUT", "TEXTAREA"].includes(e.target.tagName)) return;
    const p = session.prompt;
    if (!p) return;
    if (e.key === "Escape" || e.key === "p") {
      const pass = p.legal.find((a) => a.type === "pass");
      if (pass) session.act(pass);
    }
  };
  window.addEventListener("keydown", onKey);
  return () => {
    session.view = null;
    document.body.classList.remove("compact");
    clearInterval(ticker);
    window.removeEventListener("resize", onResize);
    window.removeEventListener("keydown", onKey);
  };
}
