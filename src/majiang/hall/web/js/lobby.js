// The lobby (大厅): rooms with their terms and live counts, a room's tables with their seats,
// quick-join / pick a seat / private tables by code, lobby chat, your balance.

import { api } from "./api.js";
import { L, bi, clear, confirmDialog, fmtInt, h, roomNames, timeText, toast } from "./util.js";
import { msg, tr } from "./i18n.js";
import { rulesetName } from "./rulesets.js";
import { session } from "./table.js";
import { shopCard } from "./items.js";
import { reliefCard } from "./relief.js";
import { friendsCard } from "./friends.js";


const state = { rooms: [], chat: [], selected: null, tables: {}, lastTablesAsk: 0 };


export function mount(root, _arg, app) {
  const conn = app.conn;
  const roomsBox = h("div.rooms#rooms");
  const tablesBox = h("div.tables#tables");
  const chatLog = h("div.chat-log#lobby-chat-log");
  const chatInput = h("input#lobby-chat-input", { maxLength: 200, i18n: { placeholder: "lobby.chat_placeholder" } });
  const codeInput = h("input#join-code", { autocapitalize: "characters", autocomplete: "off", spellcheck: false,
    maxLength: 12, i18n: { placeholder: "lobby.code_placeholder" } });
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
      toast(tr("lobby.code_needed"), "error");
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
      h("h2.section-title", L("lobby.rooms"), h("span.hint", L("lobby.rooms_hint"))),
      roomsBox,
      h("h2.section-title", L("lobby.tables"), h("span.hint#tables-room")),
      tablesBox),
    h("aside.lobby-side",
      balanceBox,
      relief.el,
      friends.el,
      shop.el,
      h("div.card",
        h("h3", L("lobby.join_friends")),
        h("p.small", L("lobby.join_friends_text")),
        h("div.row", codeInput, h("button.btn.primary#join-code-btn", { on: { click: joinByCode } }, L("lobby.join")),
          h("button.btn#watch-code-btn", { on: { click: watchByCode } }, L("lobby.watch")))),
      h("div.card.chat",
        h("h3", L("lobby.chat")),
        chatLog,
        h("div.row", chatInput, h("button.btn#lobby-chat-send", { on: { click: sendChat } }, L("lobby.send")))))));
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
      h("div.bal-label", L("lobby.your_coins")),
      h("div.bal-num#lobby-balance", fmtInt(me.balance)),
      h("div.small", h("span", { dataset: { langFree: "" } }, me.name), " · ",
        L("lobby.your_record", { hands: me.hands || 0, rate: ((me.win_rate || 0) * 100).toFixed(0) })),
    );
  }

  function renderSeated() {
    clear(seatedBox);
    if (session.tableId) {
      seatedBox.append(h("div.seated-banner",
        L("lobby.seated"),
        h("a.btn.primary", { href: "#table" }, L("lobby.back_to_table"))));
    }
  }

  function renderRooms() {
    clear(roomsBox);
    if (!state.rooms.length) {
      roomsBox.append(h("p.empty", L("lobby.loading_rooms")));
      return;
    }
    const bal = app.me ? app.me.balance : null;
    for (const r of state.rooms) {
      const [zh, en] = roomNames(r);
      const rules = rulesetName(r.rules);
      const tooPoor = bal !== null && bal < r.min_balance;
      const tooRich = bal !== null && r.max_balance !== null && bal > r.max_balance;
      const limits = r.max_balance !== null
        ? `${fmtInt(r.min_balance)} – ${fmtInt(r.max_balance)}`
        : `≥ ${fmtInt(r.min_balance)}`;
            const card = h(`div.room-card${state.selected === r.id ? ".on" : ""}`, {
        dataset: { room: r.id },
        on: { click: () => selectRoom(r.id) },
      },
      h("div.room-head",
        h("div.room-name", h("span.zh", zh), h("span.en", en)),
        r.items
          ? h("span.badge.items", { title: tr("lobby.items_room_title") }, L("lobby.items_room"))
          : h("span.badge.noitems", { title: tr("lobby.no_items") }, L("lobby.no_items"))),
      h("div.room-rules", h("span.badge.rules", bi(rules[0], rules[1])),
        h("span.badge.timer", { title: tr("lobby.timer_title", r.timer_values) },
          L(`lobby.timer.${r.timers}`))),
      h("dl.room-terms",
        h("div", h("dt", { title: tr("lobby.coefficient_title") }, L("lobby.coefficient")), h("dd.n", `×${fmtInt(r.coefficient)}`)),
        h("div", h("dt", { title: tr("lobby.fee_title") }, L("lobby.fee")), h("dd.a", fmtInt(r.fee))),
        h("div", h("dt", { title: tr("lobby.entry_title") }, L("lobby.entry")), h("dd.limits", limits))),
      h("div.room-live",
        h("span", h("b.tables-count", String(r.tables)), " ", L("lobby.n_tables")),
        h("span", h("b", String(r.playing)), " ", L("lobby.n_playing")),
        h("span", h("b.players-count", String(r.players)), " ", L("lobby.n_players"))),
      h("div.room-actions",
        h("button.btn.primary.quick", {
          disabled: tooPoor || tooRich,
          title: tooPoor ? tr("lobby.needs_coins", { n: r.min_balance }) : tooRich ? tr("lobby.too_rich") : "",
          on: {
            click: (e) => {
              e.stopPropagation();
              session.expectSeat();
              conn.send({ type: "quick_join", room: r.id });
            },
          },
        }, L("lobby.quick_join")),
        h("button.btn.ghost", {
          on: {
            click: (e) => {
              e.stopPropagation();
              selectRoom(r.id);
            },
          },
        }, L("lobby.pick_table"))));
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
      tablesBox.append(h("p.empty", L("lobby.pick_room_first")));
      return;
    }
    if (label) clear(label).append(bi(...roomNames(room)));
    tablesBox.append(h("div.tables-actions",
      h("button.btn.primary#quick-join-selected", {
        on: {
          click: () => {
            session.expectSeat();
            conn.send({ type: "quick_join", room: room.id });
          },
        },
      }, L("lobby.quick_join")),
      h("button.btn#create-table", { on: { click: () => createTable(false) } }, L("lobby.new_table")),
      h("button.btn#create-private", { on: { click: () => createTable(true) } }, L("lobby.private_table")),
      h("button.btn.ghost", { on: { click: askTables } }, L("lobby.refresh"))));
    const list = state.tables[room.id];
    if (!list) {
      tablesBox.append(h("p.empty", L("loading")));
      return;
    }
    if (!list.length) {
      tablesBox.append(h("p.empty", L("lobby.no_tables")));
      return;
    }
    for (const t of list) {
      const seats = t.seats.map((s, i) => {
        const wind = "ESWN"[i];
        if (!s) {
          return h("button.seat.free", {
            title: tr("lobby.sit_title", { wind: msg(`wind.${wind}`) }),
            dataset: { seat: i },
            disabled: t.state === "playing",
            on: {
              click: () => {
                session.expectSeat();
                conn.send({ type: "join", table: t.id, seat: i });
              },
            },
          }, h("span.sw", L(`wind1.${wind}`)), L("lobby.sit"));
        }
        return h("div.seat.taken", { title: s.name },
          h("span.sw", L(`wind1.${wind}`)),
          h("span.sname", { dataset: { langFree: "" } }, s.name),
          s.bot ? h("span.flag.bot", { title: tr("bot") }, L("bot")) : null,
          s.auto && !s.bot ? h("span.flag.auto", L("auto")) : null,
          !s.bot ? h(`span.dot.${s.online ? "on" : "off"}`, { title: tr(s.online ? "online" : "offline") }) : null);
      });
      const stateText = ["waiting", "playing", "between"].includes(t.state) ? L(`lobby.state.${t.state}`) : t.state;
      tablesBox.append(h("div.table-row", { dataset: { table: t.id } },
        h("div.table-meta",
          h("b", { dataset: { langFree: "" } }, `#${t.id}`),
          h(`span.state.${t.state}`, stateText),
          h("span.small", L("lobby.table_meta", { hands: t.hands, watching: t.spectators }))),
        h("div.seats", seats),
        h("button.btn.ghost.small", {
          on: {
            click: () => {
              session.expectSpectate();
              conn.send({ type: "spectate", table: t.id });
            },
          },
        }, L("lobby.watch"))));
    }
  }

  function renderChat() {
    clear(chatLog);
    for (const m of state.chat.slice(-60)) {
      chatLog.append(h("div.chat-line",
        h("span.t", timeText(m.at)),
        h("b", { title: tr("lobby.mute_title"), dataset: { langFree: "" }, on: { click: () => mute(m) } }, m.from),
        ": ", h("span", { dataset: { langFree: "" } }, m.text)));
    }
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  function mute(m) {
    if (app.me && m.account === app.me.id) return;
    confirmDialog(msg("lobby.mute_ask", { name: m.from }).zh, msg("lobby.mute_ask", { name: m.from }).en, msg("lobby.mute").zh, msg("lobby.mute").en).then((yes) => {
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
    conn.on("muted", (m) => toast(tr(m.on ? "lobby.muted" : "lobby.unmuted"), "ok")),
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
