// The lobby (大厅): rooms with their terms and live counts, a room's tables with their seats,
// quick-join / pick a seat / private tables by code, lobby chat, your balance.

import { api } from "./api.js";
import { bi, clear, confirmDialog, fmtInt, h, timeText, toast } from "./util.js";
import { rulesetName } from "./rulesets.js";
import { session } from "./table.js";
import { shopCard } from "./items.js";
import { reliefCard } from "./relief.js";
import { friendsCard } from "./friends.js";

const TIMERS = { standard: ["标准", "standard"], relaxed: ["宽松", "relaxed"], fast: ["快速", "fast"], blitz: ["闪电", "blitz"] };

const state = { rooms: [], chat: [], selected: null, tables: {}, lastTablesAsk: 0 };

function splitName(name) {
  // "新手场 Beginners" → ["新手场", "Beginners"]
  const m = /^(\S*[\u3400-\u9fff]\S*)\s+(.+)$/.exec(name || "");
  return m ? [m[1], m[2]] : [name, ""];
}

export function mount(root, _arg, app) {
  const conn = app.conn;
  const roomsBox = h("div.rooms#rooms");
  const tablesBox = h("div.tables#tables");
  const chatLog = h("div.chat-log#lobby-chat-log");
  const chatInput = h("input#lobby-chat-input", { maxLength: 200, placeholder: "说点什么… say something" });
  const codeInput = h("input#join-code", { autocapitalize: "characters", autocomplete: "off", spellcheck: false,
    maxLength: 12, placeholder: "8 位房号 8-character code" });
  const balanceBox = h("div.balance-card#balance-card");
  const seatedBox = h("div#seated-banner");
  const shop = shopCard(app);
  const friends = friendsCard(app, { send: (m) => { session.expectSpectate(); conn.send(m); } });
  const relief = reliefCard(app);

  const sendChat = () => {
    const text = chatInput.value.trim();
    if (!text) return;
    conn.send({ type: "chat", scope: "lobby", text });
    chatInput.value = "";
  };

  const typedCode = () => {
    const code = codeInput.value.trim().toUpperCase();
    if (!/^[0-9A-Z]{6,12}$/.test(code)) {
      toast("请输入房号（字母和数字）· Enter the table's code (letters and digits)", "error");
      return null;
    }
    return code;
  };
  const joinByCode = () => {
    const code = typedCode();
    if (!code) return;
    session.expectSeat();
    conn.send({ type: "join", code });
  };
  const watchByCode = () => { // a friend's private table, watched without taking a seat
    const code = typedCode();
    if (!code) return;
    session.expectSpectate();
    conn.send({ type: "spectate", code });
  };

  root.append(h("section.lobby-page",
    h("div.lobby-main",
      seatedBox,
      h("h2.section-title", bi("房间", "Rooms"), h("span.hint", "点击房间查看牌桌 · pick a room to see its tables")),
      roomsBox,
      h("h2.section-title", bi("牌桌", "Tables"), h("span.hint#tables-room")),
      tablesBox),
    h("aside.lobby-side",
      balanceBox,
      relief.el,
      friends.el,
      shop.el,
      h("div.card",
        h("h3", bi("好友房", "Join friends")),
        h("p.small", "输入好友私人桌的房号：入座或观战 · Enter the code of a friend's private table: sit or watch"),
        h("div.row", codeInput, h("button.btn.primary#join-code-btn", { on: { click: joinByCode } }, bi("加入", "Join")),
          h("button.btn#watch-code-btn", { on: { click: watchByCode } }, bi("观战", "Watch")))),
      h("div.card.chat",
        h("h3", bi("大厅聊天", "Lobby chat")),
        chatLog,
        h("div.row", chatInput, h("button.btn#lobby-chat-send", { on: { click: sendChat } }, bi("发送", "Send")))))));
  chatInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") sendChat();
  });
  codeInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") joinByCode();
  });

  function renderBalance() {
    const me = app.me;
    clear(balanceBox);
    if (!me) return;
    balanceBox.append(
      h("div.bal-label", bi("我的游戏币", "Your coins")),
      h("div.bal-num#lobby-balance", fmtInt(me.balance)),
      h("div.small", `${me.name} · ${me.hands || 0} 局 hands · 胜率 win rate ${((me.win_rate || 0) * 100).toFixed(0)}%`),
    );
  }

  function renderSeated() {
    clear(seatedBox);
    if (session.tableId) {
      seatedBox.append(h("div.seated-banner",
        bi("你正在牌桌上", "You are seated at a table"),
        h("a.btn.primary", { href: "#table" }, bi("回到牌桌", "Back to the table"))));
    }
  }

  function renderRooms() {
    clear(roomsBox);
    if (!state.rooms.length) {
      roomsBox.append(h("p.empty", "正在载入房间… loading rooms…"));
      return;
    }
    const bal = app.me ? app.me.balance : null;
    for (const r of state.rooms) {
      const [zh, en] = splitName(r.name);
      const rules = rulesetName(r.rules);
      const tooPoor = bal !== null && bal < r.min_balance;
      const tooRich = bal !== null && r.max_balance !== null && bal > r.max_balance;
      const limits = r.max_balance !== null
        ? `${fmtInt(r.min_balance)} – ${fmtInt(r.max_balance)}`
        : `≥ ${fmtInt(r.min_balance)}`;
      const timer = TIMERS[r.timers] || [r.timers, r.timers];
      const card = h(`div.room-card${state.selected === r.id ? ".on" : ""}`, {
        dataset: { room: r.id },
        on: { click: () => selectRoom(r.id) },
      },
      h("div.room-head",
        h("div.room-name", h("span.zh", zh), h("span.en", en)),
        r.items
          ? h("span.badge.items", { title: "道具场：可以使用道具 items allowed" }, "道具场 Items")
          : h("span.badge.noitems", { title: "无道具 no items" }, "无道具 No items")),
      h("div.room-rules", h("span.badge.rules", `${rules[0]} ${rules[1]}`),
        h("span.badge.timer", { title: `出牌 ${r.timer_values.action}s · 吃碰 ${r.timer_values.claim}s` },
          `${timer[0]} ${timer[1]}`)),
      h("dl.room-terms",
        h("div", h("dt", { title: "房间倍数 coefficient N" }, "倍数 N"), h("dd.n", `×${fmtInt(r.coefficient)}`)),
        h("div", h("dt", { title: "台费 fee A (each hand)" }, "台费 A"), h("dd.a", fmtInt(r.fee))),
        h("div", h("dt", { title: "入场游戏币 balance to enter" }, "入场 Entry"), h("dd.limits", limits))),
      h("div.room-live",
        h("span", { title: "牌桌 tables" }, h("b.tables-count", String(r.tables)), " 桌 tables"),
        h("span", { title: "对局中 playing" }, h("b", String(r.playing)), " 对局 playing"),
        h("span", { title: "玩家 players" }, h("b.players-count", String(r.players)), " 人 players")),
      h("div.room-actions",
        h("button.btn.primary.quick", {
          disabled: tooPoor || tooRich,
          title: tooPoor ? `至少需要 ${r.min_balance} 游戏币 · needs ${r.min_balance} coins` : tooRich ? "游戏币超过上限 · above the maximum" : "",
          on: {
            click: (e) => {
              e.stopPropagation();
              session.expectSeat();
              conn.send({ type: "quick_join", room: r.id });
            },
          },
        }, bi("快速加入", "Quick join")),
        h("button.btn.ghost", {
          on: {
            click: (e) => {
              e.stopPropagation();
              selectRoom(r.id);
            },
          },
        }, bi("选桌", "Tables"))));
      if (tooPoor || tooRich) card.classList.add("locked");
      roomsBox.append(card);
    }
  }

  function selectRoom(id) {
    state.selected = id;
    sessionStorage.setItem("majiang.room", id);
    askTables();
    renderRooms();
    renderTables();
  }

  function askTables() {
    if (!state.selected) return;
    state.lastTablesAsk = Date.now();
    conn.send({ type: "tables", room: state.selected });
  }

  async function createTable(priv) {
    const room = state.selected;
    if (!room) return;
    if (!priv) {
      session.expectSeat();
      conn.send({ type: "create", room, private: false });
      return;
    }
    // a private table's code comes from the HTTP API (the WebSocket snapshot does not carry it)
    try {
      const r = await api("/api/tables", { method: "POST", body: { room, private: true } });
      session.expectSeat(r.code);
      conn.send({ type: "join", code: r.code });  // a private table is joined by its code only, its creator too
    } catch (e) {
      toast(e.message, "error");
    }
  }

  function renderTables() {
    clear(tablesBox);
    const label = document.getElementById("tables-room");
    const room = state.rooms.find((r) => r.id === state.selected);
    if (!room) {
      if (label) label.textContent = "";
      tablesBox.append(h("p.empty", "先选择一个房间 · Pick a room first"));
      return;
    }
    if (label) label.textContent = room.name;
    tablesBox.append(h("div.tables-actions",
      h("button.btn.primary#quick-join-selected", {
        on: {
          click: () => {
            session.expectSeat();
            conn.send({ type: "quick_join", room: room.id });
          },
        },
      }, bi("快速加入", "Quick join")),
      h("button.btn#create-table", { on: { click: () => createTable(false) } }, bi("开新桌", "New table")),
      h("button.btn#create-private", { on: { click: () => createTable(true) } }, bi("开私人桌", "Private table (code)")),
      h("button.btn.ghost", { on: { click: askTables } }, bi("刷新", "Refresh"))));
    const list = state.tables[room.id];
    if (!list) {
      tablesBox.append(h("p.empty", "载入中… loading…"));
      return;
    }
    if (!list.length) {
      tablesBox.append(h("p.empty", "还没有牌桌 — 快速加入会开一张新桌 · No tables yet: quick join opens one"));
      return;
    }
    for (const t of list) {
      const seats = t.seats.map((s, i) => {
        const wind = "东南西北"[i];
        if (!s) {
          return h("button.seat.free", {
            title: `坐到${wind}位 sit in seat ${i}`,
            dataset: { seat: i },
            disabled: t.state === "playing",
            on: {
              click: () => {
                session.expectSeat();
                conn.send({ type: "join", table: t.id, seat: i });
              },
            },
          }, h("span.sw", wind), bi("坐下", "Sit"));
        }
        return h("div.seat.taken", { title: s.name },
          h("span.sw", wind),
          h("span.sname", s.name),
          s.bot ? h("span.flag.bot", { title: "机器人 bot" }, "机器人") : null,
          s.auto && !s.bot ? h("span.flag.auto", "托管") : null,
          !s.bot ? h(`span.dot.${s.online ? "on" : "off"}`, { title: s.online ? "在线 online" : "离线 offline" }) : null);
      });
      const stateText = { waiting: "等待中 waiting", playing: "对局中 playing", between: "局间 between hands" }[t.state] || t.state;
      tablesBox.append(h("div.table-row", { dataset: { table: t.id } },
        h("div.table-meta",
          h("b", `#${t.id}`),
          h(`span.state.${t.state}`, stateText),
          h("span.small", `${t.hands} 局 hands · ${t.spectators} 观战 watching`)),
        h("div.seats", seats),
        h("button.btn.ghost.small", {
          on: {
            click: () => {
              session.expectSpectate();
              conn.send({ type: "spectate", table: t.id });
            },
          },
        }, bi("观战", "Watch"))));
    }
  }

  function renderChat() {
    clear(chatLog);
    for (const m of state.chat.slice(-60)) {
      chatLog.append(h("div.chat-line",
        h("span.t", timeText(m.at)),
        h("b", { title: "点击屏蔽 click to mute", on: { click: () => mute(m) } }, m.from),
        ": ", m.text));
    }
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  function mute(m) {
    if (app.me && m.account === app.me.id) return;
    confirmDialog(`屏蔽 ${m.from} 的聊天？`, `Mute ${m.from}?`, "屏蔽", "Mute").then((yes) => {
      if (yes) conn.send({ type: "mute", account: m.account, on: true });
    });
  }

  const offs = [
    conn.on("lobby", (m) => {
      state.rooms = m.rooms || state.rooms;
      if (m.chat) state.chat = m.chat.slice();
      if (!state.selected && state.rooms.length) {
        const saved = sessionStorage.getItem("majiang.room");
        state.selected = state.rooms.some((r) => r.id === saved) ? saved : state.rooms[0].id;
        askTables();
      } else if (Date.now() - state.lastTablesAsk > 700) {
        askTables();
      }
      renderRooms();
      if (m.chat) renderChat();
    }),
    conn.on("tables", (m) => {
      state.tables[m.room] = m.tables;
      if (m.room === state.selected) renderTables();
    }),
    conn.on("chat", (m) => {
      if (m.scope !== "lobby") return;
      state.chat.push(m);
      renderChat();
    }),
    conn.on("muted", (m) => toast(m.on ? "已屏蔽 · muted" : "已取消屏蔽 · unmuted", "ok")),
    conn.on("_me", () => {
      renderBalance();
      renderRooms();
    }),
    conn.on("_state", (s) => {
      if (s.state === "open") conn.send({ type: "lobby" });
    }),
    conn.on("table", () => renderSeated()),
  ];

  renderBalance();
  renderSeated();
  renderRooms();
  renderTables();
  renderChat();
  conn.send({ type: "lobby" });
  app.refreshMe();
  api("/api/rooms", { auth: false }).then((rooms) => {
    if (!state.rooms.length) {
      state.rooms = rooms;
      renderRooms();
    }
  }).catch(() => {});
  const poll = setInterval(askTables, 5000);
  return () => {
    clearInterval(poll);
    shop.off();
    relief.off();
    offs.forEach((off) => off());
  };
}
