// Between hands (docs/web-client.md, majiang.hall.between): the ready step (准备 / 再来一局 and the
// server's countdown), 本局后离座 (leave after this hand), and a private table's wait for friends (the
// owner's 加机器人 buttons, the countdown before bots join).  Every state and deadline comes from the
// server's table_info (ready, ready_ms, bots_in_ms, owner); this module only draws them.

import { bi, h, L } from "./util.js";
import { t, tr } from "./i18n.js";

/** A table_info or snapshot arrived: turn its countdowns (ms left) into local deadlines. */
export function noteTimers(session, table) {
  const now = performance.now();
  session.readyAt = table && table.ready && table.ready_ms !== null && table.ready_ms !== undefined
    ? now + table.ready_ms : null;
  session.botsAt = table && table.bots_in_ms !== null && table.bots_in_ms !== undefined
    ? now + table.bots_in_ms : null;
}

/** The ready step is open at our table. */
export function readyStep(session) {
  const tb = session.table;
  return !!(tb && tb.ready && session.seat !== null && !session.spectator);
}

export function amReady(session) {
  const tb = session.table;
  return !!(tb && tb.ready && tb.ready[session.seat]);
}

function readyCount(tb) {
  const seats = tb.ready.filter((r) => r !== null);
  return [seats.filter(Boolean).length, seats.length];
}

function sendReady(session) {
  session.app.conn.send({ type: "ready" });
}

/** May we add bots here? Anyone seated at a public table; at a private one only its owner. */
export function mayAddBots(session) {
  const tb = session.table;
  if (!tb || session.seat === null || session.spectator) return false;
  if (!tb.private) return true;
  const me = tb.seats[session.seat];
  return !!me && tb.owner === me.account;
}

export function addBots(session, seat = null) {
  const msg = { type: "add_bots" };
  if (seat !== null) msg.seat = seat;
  session.app.conn.send(msg);
}

/** The action bar in the ready step: 准备 (or 已准备), how many are ready, the countdown. */
export function readyBar(session) {
  const tb = session.table;
  const [n, of] = readyCount(tb);
  const bar = h("div.actionbar.ready-bar#ready-bar");
  if (amReady(session)) {
    bar.append(h("span.hint#ready-done", L("between.ready_waiting", { n, of })));
  } else {
    bar.append(h("button.act.win#ready-btn", { on: { click: () => sendReady(session) } },
      L("between.ready")),
    h("span.hint", L("between.ready_n", { n, of })));
  }
  bar.append(h("span.countdown.ready-countdown#ready-countdown", ""));
  return bar;
}

/** The result dialog's 再来一局 (Play again): ready for the next hand, and the dialog closes. */
export function playAgainButton(session) {
  if (!readyStep(session) || amReady(session)) return null;
  return h("button.btn.primary#play-again", {
    on: {
      click: () => {
        sendReady(session);
        session.closeResult();
      },
    },
  }, L("between.play_again"));
}

/** 本局后离座: a toggle during a hand (the server stores it; at the hand's end the seat is given up, free). */
export function leaveAfterButton(session) {
  const tb = session.table;
  if (!tb || tb.state !== "playing" || session.seat === null || session.spectator) return null;
  const on = !!session.leaveAfter;
  return h(`button.btn.toggle#leave-after${on ? ".on" : ""}`, {
    "aria-pressed": on ? "true" : "false",
    title: tr("between.leave_the_table_when_this_hand_e"),
    on: { click: () => session.app.conn.send({ type: "leave_after", on: !on }) },
  }, L(on ? "between.leave_after_on" : "between.leave_after"));
}

/** Waiting for players: the countdown before bots join (or that a private table waits for friends). */
export function botsWaitEl(session) {
  const tb = session.table;
  if (!tb || tb.state !== "waiting" || !tb.seats.some((s) => !s)) return null;
  if (session.botsAt) return h("span.hint.bots-in#bots-in", "");
  if (tb.private) {
    return h("span.hint.bots-in#bots-in", L("between.waiting_for_friends_to_join_with"));
  }
  return null;
}

/** Per-seat 加机器人 for a private table's owner: a button on each empty seat of the seat list. */
export function seatBotButton(session, seat) {
  const tb = session.table;
  if (!tb || !tb.private || tb.state !== "waiting" || tb.seats[seat] || !mayAddBots(session)) return null;
  return h("button.btn.small.seat-bot", { dataset: { seat }, title: tr("between.a_bot_in_this_seat"),
    on: { click: () => addBots(session, seat) } }, L("between.bot"));
}

/** Every 250 ms: the countdowns' text. */
export function tickBetween(session) {
  const now = performance.now();
  const ready = readyStep(session) && session.readyAt ? Math.max(0, Math.ceil((session.readyAt - now) / 1000)) : null;
  for (const el of document.querySelectorAll("#ready-countdown")) {
    el.textContent = ready === null ? "" : `${ready}s`;
    el.classList.toggle("urgent", ready !== null && ready <= 3);
  }
  const nx = document.getElementById("next-hand-in");
  if (nx && ready !== null) {
    nx.textContent = tr(amReady(session) ? "between.ready_within" : "between.ready_or_auto", { n: ready });
  }
  const bots = document.getElementById("bots-in");
  if (bots && session.botsAt) {
    const left = Math.max(0, Math.ceil((session.botsAt - now) / 1000));
    bots.textContent = tr("between.bots_in", { n: left });
  }
  return ready !== null;
}
