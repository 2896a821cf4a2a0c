// The live table: one TableSession (kept across page changes, fed by the WebSocket) and the table
// page that draws it: the stage, the prompt's legal actions, 托管, chat, the result screen.

import { api } from "./api.js";
import { HandModel } from "./model.js";
import { inviteCard } from "./friends.js";
import { fitStage, handTiles, markJing, meldEl, meldsEl, renderStage, seatDetail } from "./board.js";
import { WIND_EN, WIND_ZH, bi, clear, confirmDialog, fmtInt, h, signed, timeText, toast } from "./util.js";
import { pointsName, rulesetName } from "./rulesets.js";
import { ALL_KINDS, tileEl, tileName, tileZh } from "./tiles.js";
import { ITEM_NAMES, PATTERN_NAMES, TURN_ITEMS, itemErrorText, itemLabel, itemZh, resultText, tileChoices,
  usedText } from "./items.js";
import { play as playSound } from "./sound.js";
import { t } from "./i18n.js";
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

const ACTION_LABEL = {
  win: ["和", "Win"], chow: ["吃", "Chow"], pung: ["碰", "Pung"], kong: ["杠", "Kong"],
  added_kong: ["加杠", "Add kong"], concealed_kong: ["暗杠", "Concealed kong"], pass: ["过", "Pass"],
};

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
          toast("你已不在牌桌上 · You are no longer at a table", "info");
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
    c.on("seat_queued", () => toast("牌桌已满：本局结束后机器人让座给你，先观战 · A bot gives you its seat when this hand ends; watching until then", "info", 8000));
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
        toast("多次超时，已自动托管 · Auto-play (托管) is on after repeated timeouts", "error", 6000);
        this.userAuto = true;
      }
      if (m.on && m.reason === "not_ready") {
        toast("没有准备，这一局由托管代打 · Not ready in time: auto-play (托管) plays this hand", "error", 6000);
        this.userAuto = true;
      }
      if (m.on) this.prompt = null;
      this.redraw();
    });
    c.on("escape", (m) => {
      if (!this.mine(m)) return;
      const name = this.nameOf(m.seat);
      const comp = m.compensation ? `，其余玩家各得补偿 ${m.compensation} · the others get ${m.compensation} each` : "";
      toast(`${name} 逃跑，罚 ${m.penalty} 游戏币 · ${name} left the hand (penalty ${m.penalty} coins)${comp}`,
        "info", 6000);
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
        toast(m.code === "leave_after" ? "本局结束，你已离座（不扣分） · You left the table after the hand (no penalty)"
          : "两次未准备，座位已让出（不扣分） · Two ready steps missed: your seat was given up (no penalty)", "info", 8000);
        if (this.resultOpen) { // read the result first: closing it goes to the lobby
          this.leftTable = true;
          this.table = this.table && { ...this.table, ready: null };
          this.redraw();
          return;
        }
      } else {
        toast(`你已离座：${m.reason || ""} · You were stood up`, "error", 8000);
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
    return s ? s.name : `${"东南西北"[seat]}`;
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
      toast(`观战中：事件延迟 ${m.delay_s} 秒，从下一步开始显示 · Spectating with a ${m.delay_s}s delay`, "info", 6000);
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
        toast(`${who} 诈和 · ${who} declared a false win (${e.kind})`, "error", 6000);
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
      toast("连接中断，正在重连… · Not connected; reconnecting…", "error");
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
      const leave = await confirmDialog(
        `对局中离开算逃跑，罚 ${pen} 游戏币，由托管打完本局（不扣分：用“本局后离座”）。确定离开？`,
        `Leaving during a hand is an escape: you pay ${pen} coins and 托管 plays the hand out ` +
        "(free: use \"Leave after this hand\"). Leave?", "离开", "Leave");
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
    case "chow": return ["吃", "Chow"];
    case "pung": return ["碰", "Pung"];
    case "kong": return ["杠", "Kong"];
    case "add_kong_declared": return ["加杠", "Kong"];
    case "flower": return ["补花", "Flower"];
    case "win": return ["和", e.from === null || e.from === undefined ? "Self-drawn" : "Win"];
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
  return h("span.countdown", { title: "剩余时间 time left" }, "");
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
    nx.textContent = "你已离座，不再参加下一局 · You have left the table: no next hand for you";
    nx.classList.add("left");
    return;
  }
  if (tickBetween(session)) return; // the ready step's countdown (between.js)
  if (nx && session.nextHandAt) {
    const left = Math.max(0, Math.ceil((session.nextHandAt - performance.now()) / 1000));
    nx.textContent = left > 0 ? `下一局 ${left} 秒后开始 · next hand in ${left}s` : "下一局即将开始 · next hand starting";
  }
}

function relName(seat) {
  if (session.seat === null) return "";
  return ["自家", "下家", "对家", "上家"][(seat - session.seat + 4) % 4];
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
      bar.append(h("span.hint", h("span.zh", `等待玩家 ${4 - free}/4`), " ", h("span.en", `waiting for players ${4 - free}/4`)));
      const wait = botsWaitEl(session);
      if (wait) bar.append(wait);
      if (free && mayAddBots(session)) {
        bar.append(h("button.act#add-bots", { on: { click: () => session.app.conn.send({ type: "add_bots" }) } },
          h("span.zh", "添加机器人"), h("span.en", "Add bots")));
      }
      return bar;
    }
    return null;
  }
  if (session.myAuto && !p) {
    bar.append(h("span.hint", h("span.zh", "托管中"), " ", h("span.en", "auto-play is on")),
      h("button.act#take-over", { on: { click: () => session.setAuto(false) } }, h("span.zh", "取消托管"),
        h("span.en", "Take over")));
    return bar;
  }
  if (!p) return null;
  const legal = p.legal;
  const discards = legal.filter((a) => a.type === "discard");
  const chows = legal.filter((a) => a.type === "chow");
  if (discards.length) {
    bar.classList.add("turn");
    bar.append(h("span.hint#your-turn", h("span.zh", "轮到你出牌 — 点击一张牌打出"), " ",
      h("span.en", "Your turn: click a tile to discard")));
  } else if (m.pending) {
    const who = relName(m.pending.seat);
    const verb = m.phase === "rob" ? "加杠" : "打出";
    bar.append(h("span.offer", `${who}${verb}`, tileEl(m.pending.tile, { size: "sm" }),
      h("span.en", m.phase === "rob" ? "adds a kong" : "discarded")));
  }
  for (const a of legal) {
    if (a.type === "win") {
      bar.append(actionButton(a, discards.length ? ["自摸", "Win (self-drawn)"] : ACTION_LABEL.win, "win"));
    }
  }
  if (p.noWin) { // the hand is complete, but not a win: say why there is no 和 button
    bar.append(h("span.hint.no-win#no-win", h("span.zh", `已成和牌形，但只有 ${p.noWin.fan} 番，不够 ${p.noWin.min} 番起和`),
      " ", h("span.en", `complete, but only ${p.noWin.fan} fan: ${p.noWin.min} needed to win`)));
  }
  if (chows.length === 1) bar.append(actionButton(chows[0], ACTION_LABEL.chow));
  if (chows.length > 1) {
    const box = h("div.chow-choices", h("span.act-label", "吃 Chow:"));
    for (const a of chows) {
      box.append(h("span.chow-choice", {
        dataset: { action: "chow", tiles: a.tiles.join(",") },
        title: `吃 chow ${a.tiles.map(tileZh).join("")}`,
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

function fanRows(fans) {
  const rows = [];
  for (const f of fans || []) {
    const zh = f.zh || f.name;
    const en = f.zh ? (f.name || HU_EN[f.zh] || "") : (HU_EN[f.name] || "");
    if ("points" in f) {
      rows.push(h("tr.fan", h("td", zh), h("td", en), h("td.num", String(f.points)), h("td.num", `×${f.count || 1}`),
        h("td.num", String(f.points * (f.count || 1)))));
    } else {
      rows.push(h("tr.fan", h("td", zh), h("td", en), h("td.num", `×${f.factor}`), h("td.num", ""), h("td.num", "")));
    }
  }
  return rows;
}

/** The winner's hand: concealed tiles, melds, the winning tile apart. */
export function winHandEl(win) {
  return h("div.winhand",
    h("div.concealed", (win.hand || []).map((t) => tileEl(t, { size: "md" }))),
    h("div.melds", (win.melds || []).map((mm) => meldEl(mm, "md"))),
    h("span.wintile", tileEl(win.tile, { size: "md", title: `和张 winning tile: ${tileName(win.tile)}` })));
}

// 东风战 / 全庄 (docs/ratings.md): the running totals after each hand, the places and 段位 at the match's end
function matchBox(r, names) {
  const m = r.match;
  if (!m) return null;
  const end = session.matchEnd && session.matchEnd.hand === r.hand ? session.matchEnd : null;
  const kind = m.of === 4 ? ["东风战", "East-round match"] : ["全庄", "full match"];
  const rows = [0, 1, 2, 3].map((s) => h(`tr${s === session.seat ? ".me" : ""}`, { dataset: { seat: s } },
    h("td", names[s]), h("td.num", signed(m.totals[s])),
    end ? h("td.num", `${end.places[s]}`) : null,
    end ? h("td.num", end.ranks[s] ? `${signed(end.points[s])} → ${end.ranks[s].after.zh}` : "—") : null));
  return h("div.match#match-box",
    h("h3", end ? bi(`${kind[0]}结束：名次`, `${kind[1]} over: places`) : bi(`${kind[0]} 第 ${m.hand}/${m.of} 局`, `${kind[1]}, hand ${m.hand} of ${m.of}`)),
    h("table.match-totals",
      h("thead", h("tr", h("th", bi("玩家", "Player")), h("th.num", bi("累计", "Total")),
        end ? h("th.num", bi("名次", "Place")) : null, end ? h("th.num", bi("段位分", "Rank points")) : null)),
      h("tbody", rows)));
}

function renderResult() {
  const r = session.result;
  if (!r || !session.resultOpen) return null;
  const win = r.result && r.result.win;
  const names = [0, 1, 2, 3].map((s) => session.nameOf(s));
  const dialog = h("div.result#result", { role: "dialog", "aria-label": "本局结果 result" });
  let box = h("div.res-a");
  dialog.append(box);
  if (win) {
    const how = win.from === null || win.from === undefined
      ? ["自摸", "self-drawn"]
      : [`点炮：${names[win.from]}`, `on ${names[win.from]}'s discard`];
    box.append(h("h2", bi(`和了！${names[win.seat]}`, `Win — ${names[win.seat]}, ${how[1]}`)),
      h("p.how", `${how[0]} · ${win.points} ${pointsName(session.model.rules)}`),
      winHandEl(win));
    const isMcr = (win.fans || []).some((f) => "points" in f);
    box.append(h("table.fans#fans",
      h("thead", h("tr", h("th", "番种"), h("th", "Fan"), h("th.num", isMcr ? bi("番数", "points") : bi("倍数", "factor")),
        h("th.num", isMcr ? bi("次数", "count") : ""), h("th.num", isMcr ? bi("小计", "subtotal") : ""))),
      h("tbody", fanRows(win.fans)),
      h("tfoot", h("tr.total", h("td", "合计"), h("td", "Total"), h("td.num", ""), h("td.num", ""),
        h("td.num#fan-total", String(win.points))))));
  } else {
    const moved = (r.scores || []).some((x) => x !== 0);
    box.append(h("h2", bi("荒庄", "Exhaustive draw — nobody won")),
      h("p.how", moved ? bi("本局流局；杠分等照算，台费照收", "No win; kong and other payments stand, the table fee is taken")
        : bi("本局流局，不计分；台费照收", "No score moves; the table fee is still taken")));
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
      h("td.pname", names[s], me ? bi(" (你)", "(you)") : ""),
      h(`td.num.score${sc > 0 ? ".pos" : sc < 0 ? ".neg" : ""}`, signed(sc)),
      h(`td.num.coin-delta${co > 0 ? ".pos" : co < 0 ? ".neg" : ""}`, { dataset: { coins: co } }, signed(co)));
  });
  const room = session.room;
  box.append(h("table.seats-result#seats-result",
    h("thead", h("tr", h("th", bi("风位", "Seat")), h("th", bi("玩家", "Player")), h("th.num", bi("分数", "Score")),
      h("th.num", bi("游戏币", "Coins"), room ? h("span.terms", ` (N=${room.coefficient}, A=${room.fee})`) : null))),
    h("tbody", seatRows)));
  if (session.seat !== null && r.coins) {
    const mine = r.coins[session.seat];
    box.append(h("p.mycoins#my-coins", { dataset: { coins: mine } },
      bi("你的游戏币变化", "your coins:"), " ", h(`b.${mine >= 0 ? "pos" : "neg"}`, signed(mine)),
      session.balanceAfter !== undefined && session.balanceAfter !== null
        ? h("span", " → ", bi("余额", "balance"), ` ${fmtInt(session.balanceAfter)}`) : null));
  }
  const verify = session.verified === true
    ? h("span.verify.ok", "✓ sha256(seed) = seed hash ", bi("洗牌公平可验证", "the shuffle was committed before the hand"))
    : session.verified === false ? h("span.verify.bad", "✗ seed does not match its hash!") : null;
  const mb = matchBox(r, names);
  if (mb) box.append(mb);
  box.append(h("div.seed",
    h("div", h("b", bi("种子哈希", "seed hash (shown at the start):"), " "), h("span#seed-hash", r.seed_hash)),
    h("div", h("b", bi("种子", "seed (revealed):"), " "), h("span#seed", r.seed || (r.sealed
      ? bi("复式：本场比赛结束后公布", "duplicate walls: revealed when the event session ends") : ""))),
    verify));
  box.append(h("div.buttons",
    h("span.next#next-hand-in", ""),
    playAgainButton(session),
    r.hand ? h("a.btn#replay-link", { href: `#replay/${r.hand}`, target: "_blank", rel: "noopener" },
      bi("回放", "Replay")) : null,
    r.hand ? h("a.btn#review-link", { href: `#replay/${r.hand}/review`, target: "_blank", rel: "noopener" },
      bi("复盘", "Review")) : null,
    h("button.btn.primary#close-result", { on: { click: () => session.closeResult() } },
      session.leftTable ? bi("回大厅", "Back to the lobby") : bi("继续", "Continue"))));
  return h("div.overlay.result-overlay", dialog);
}

function renderSide(side) {
  clear(side);
  const tb = session.table;
  const room = session.room;
  const m = session.model;
  if (!tb) {
    side.append(h("p.empty", "不在牌桌上 · Not at a table"), h("a.btn", { href: "#lobby" }, bi("回大厅", "Lobby")));
    return;
  }
  const rules = room ? rulesetName(room.rules) : ["", ""];
  if (session.kicked) {
    side.append(h("div.card.kicked-card", h("h3", bi("已断开", "Disconnected")),
      h("p.small", bi("你在别处登录了，这个页面不再连接牌桌。", "You logged in somewhere else; this page no longer follows the table.")),
      h("button.btn.primary#kicked-reload", { on: { click: () => location.reload() } }, bi("在这里继续", "Continue here"))));
  }
  const hints = isCompact() && !LANDSCAPE_PHONE.matches ? null : hintsCard(session); // portrait phones: in the dock
  if (hints) side.append(hints);
  side.append(h("div.card.table-card",
    h("h3", room ? room.name : tb.room),
    h("div.small", t(`${rules[0]} · 倍数 N ×${room ? room.coefficient : "?"} · 台费 A ${room ? room.fee : "?"}`,
      `${rules[1]} · N ×${room ? room.coefficient : "?"} · fee A ${room ? room.fee : "?"}`)),
    h("div.small", t(`桌 #${tb.id}${tb.private ? " · 私人桌" : ""} · 已打 ${tb.hands} 局`,
      `table #${tb.id}${tb.private ? " · private" : ""} · ${tb.hands} hands played`)),
    session.code ? h("div.code#table-code", "房号 code ", h("b", session.code), h("span.small", " 发给好友 share it with friends")) : null,
    tb.private && !session.code ? h("div.small", "私人桌 private table") : null,
    session.spectator ? h("div.flag.auto", `观战中 spectating (delay ${room ? room.spectate_delay_s : "?"}s)`) : null,
    m.started && m.dice ? h("div.small#dice-line", t(`骰子 ${m.dice.join(" + ")}`, `dice ${m.dice.join(" + ")}`)) : null,
    (m.seedHash || session.seedHashShown)
      ? h("div.small.mono", { title: "本局开始时公布的种子哈希；局后公布种子以验证 seed commitment" },
        "种子哈希 seed hash: ", h("span#seed-hash-live", (m.seedHash || session.seedHashShown).slice(0, 16) + "…"))
      : null));
  if (session.code && !session.spectator && session.app.me && session.app.me.kind === "player") {
    session.inviteEl = session.inviteEl || inviteCard(); // a private table: bring a friend (asked once a table)
    side.append(session.inviteEl);
  }
  const seats = h("div.card.seat-list#seat-list", h("h3", bi("座位", "Seats")));
  tb.seats.forEach((s, i) => {
    const w = m.started ? m.seatWind(i) : "ESWN"[i];
    seats.append(h(`div.seat-line${i === session.seat ? ".me" : ""}`,
      h("span.wind", WIND_ZH[w]),
      h("span.sname", s ? s.name : t("空位", "empty")),
      s && s.bot ? h("span.flag.bot", t("机器人", "bot")) : null,
      s && s.auto && !s.bot ? h("span.flag.auto", t("托管", "auto")) : null,
      s && !s.online ? h("span.flag.off", t("离线", "offline")) : null,
      s && tb.ready && tb.ready[i] ? h("span.flag.ready", { title: t("已准备", "ready"), "aria-label": t("已准备", "ready") }, "✓") : null,
      seatBotButton(session, i),
      m.started ? h("span.score", String(m.scores[i])) : null));
  });
  side.append(seats);
  const buttons = h("div.card.controls");
  if (!session.spectator) {
    const autoBtn = h(`button.btn.toggle#auto-toggle${session.myAuto ? ".on" : ""}`, {
      "aria-pressed": session.myAuto ? "true" : "false",
      title: "托管：服务器替你打出摸到的牌、放弃吃碰 · auto-play discards the drawn tile and passes claims",
      on: { click: () => session.setAuto(!session.myAuto) },
    }, bi(session.myAuto ? "托管中" : "托管", session.myAuto ? "Auto-play ON" : "Auto-play"));
    buttons.append(autoBtn);
    if (tb.state === "waiting" && tb.seats.some((s) => !s) && mayAddBots(session)) {
      buttons.append(h("button.btn#add-bots-side", { on: { click: () => addBots(session) } },
        bi("添加机器人", "Add bots")));
    }
    const leave = leaveAfterButton(session);
    if (leave) buttons.append(leave);
  }
  buttons.append(h("button.btn.danger#stand", { on: { click: () => session.stand() } },
    bi(session.spectator ? "离开" : "离座", session.spectator ? "Leave" : "Stand up")));
  side.append(buttons);
  if (!session.spectator && session.seat !== null) side.append(togglesCard((msg) => session.app.conn.send(msg)));
  const items = renderItems();
  if (items) side.append(items);
  const log = h("div.chat-log#table-chat-log");
  const input = h("input#table-chat-input", { maxLength: 200, placeholder: "牌桌聊天 table chat" });
  const send = () => {
    const text = input.value.trim();
    if (!text) return;
    session.app.conn.send({ type: "chat", scope: "table", text });
    input.value = "";
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") send();
  });
  side.append(h("div.card.chat", h("h3", bi("聊天", "Chat")), log,
    h("div.row", input, h("button.btn#table-chat-send", { on: { click: send } }, bi("发送", "Send")))));
  renderChat(log);
}

/** The item card: the bar of owned items (enabled exactly when the server lists them as usable), the
 * picker, what our last use did, item errors, and the public log of uses. */
function renderItems() {
  const st = session.items;
  if (!st && !session.itemLog.length) return null;
  const card = h("div.card.items-card#item-card", h("h3", bi("道具", "Items"),
    st && st.golden_finger ? h("span.flag.golden#golden-on", { title: "金手指 golden finger" }, "☟ 金手指") : null));
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
        title: u ? `使用 use ${itemLabel(id)}` : `${itemLabel(id)}：现在不能用 · not usable now`,
        on: { click: () => session.clickItem(id) },
      }, h("span.zh", itemZh(id)), h("span.en", ITEM_NAMES[id][1]), h("span.n", `×${n}`)));
    }
    if (!bar.childElementCount) bar.append(h("span.small", "没有道具 — 到大厅的商店购买 · no items: buy some in the lobby's shop"));
    card.append(bar);
    if (st.queued) {
      const [zh, en] = PATTERN_NAMES[st.queued.pattern] || ["随机", "random"];
      card.append(h("div.small#item-queued", `下一局：乾坤大挪移 ${zh} · next hand: Great Shift (${en})`));
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
  const box = h("div.item-picker#item-picker", { dataset: { item: p.item } }, h("b", `使用 ${itemLabel(p.item)}`));
  if (wants.includes("tile")) {
    const mine = (session.model.seats[session.seat] || {}).hand || [];
    box.append(h("div.small", "交出哪张牌 · the tile of your hand to give"),
      tileChoices("pick-give", [...new Set(mine.filter(Boolean))], p.tile, (t) => set("tile", t)));
  }
  if (wants.includes("target") && p.item === "qiankun") {
    box.append(h("div.small", "选一个牌型 · pick a pattern"), h("div.pick-row.pick-pattern",
      [null, ...Object.keys(PATTERN_NAMES)].map((id) => h(`button.btn.small${p.target === id ? ".on" : ""}`, {
        dataset: { pattern: id || "" }, on: { click: () => set("target", id) },
      }, id ? bi(...PATTERN_NAMES[id]) : bi("随机", "Random")))));
  } else if (wants.includes("target")) {
    const toutian = p.item === "toutian";
    box.append(h("div.small", toutian ? "想要哪张牌 · the tile you want" : "找哪张牌 · the tile you look for"),
      tileChoices("pick-target", toutian ? ALL_KINDS.filter((t) => t !== p.tile) : ALL_KINDS, p.target,
        (t) => set("target", t)));
  }
  const ready = u.needs.every((k) => p[k]);
  box.append(h("div.row",
    h("button.btn.primary.small#item-confirm", { disabled: !ready, on: { click: () => session.useItem(p.item, p) } },
      bi("使用", "Use")),
    h("button.btn.small.ghost#item-cancel", {
      on: {
        click: () => {
          session.itemPick = null;
          session.redraw();
        },
      },
    }, bi("取消", "Cancel"))));
  return box;
}

function renderChat(log) {
  if (!log) return;
  clear(log);
  for (const c of session.chat.slice(-50)) {
    log.append(h("div.chat-line", h("span.t", timeText(c.at)),
      h("b", {
        title: "点击屏蔽 click to mute",
        on: {
          click: () => {
            if (session.app.me && c.account === session.app.me.id) return;
            confirmDialog(`屏蔽 ${c.from}？`, `Mute ${c.from}?`, "屏蔽", "Mute").then((yes) => {
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
      waiting: waiting ? `等待玩家 ${4 - free}/4` : m.started ? null : "等待开局",
      waitingEn: waiting ? "Waiting for players" : "Waiting to start",
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
      stageBox.append(h("div.conn-banner#kicked", bi("你在别处登录了 — 此页已断开", "Logged in elsewhere — this page is disconnected")));
    } else if (s === "waiting" || s === "connecting") {
      stageBox.append(h("div.conn-banner#reconnecting", "连接断开，正在重连… Reconnecting…"));
    } else if (s === "stopped") {
      stageBox.append(h("div.conn-banner", "已断开 Disconnected — 请刷新页面 reload the page"));
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
      h("p", bi("你还没有坐下", "You are not at a table")),
      h("a.btn.primary", { href: "#lobby" }, bi("去大厅", "Go to the lobby"))));
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
