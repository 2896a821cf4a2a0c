// The replay viewer: #replay/<handId> loads /api/hands/<id> (a finished hand: its seed is revealed)
// and steps through the events with every hand face up; #replay/<handId>/review opens it at your seat
// with the review panel (review.js) in view.

import { api } from "./api.js";
import { HandModel } from "./model.js";
import { fitStage, renderStage } from "./board.js";
import { bi, clear, h, L, roomNames, signed, WIND_EN, WIND_ZH } from "./util.js";
import { rulesetName } from "./rulesets.js";
import { tileEn, tileZh } from "./tiles.js";
import { msg, t, tr } from "./i18n.js";
import { winHandEl } from "./table.js";
import { replayText } from "./items.js";
import { reviewPanel } from "./review.js";

const SPEEDS = [0.25, 0.5, 1, 2, 4];
const LANG_FREE = { dataset: { langFree: "" } }; // hex digits (seeds, hashes): the same in every language

/** A tile's name as {zh, en} (a catalogue value), "" for none. */
function tl(t) {
  return t ? { zh: tileZh(t), en: tileEn(t) } : "";
}

/** One event of the log in words (a label: the stylesheet shows the chosen language). */
function describe(e, names) {
  const n = (s) => (s === null || s === undefined ? "" : names[s] || `#${s}`);
  const v = { who: n(e.seat), tile: tl(e.tile) };
  switch (e.type) {
    case "hand_start": {
      const w = "ESWN"[e.prevalent];
      return [L("replay.hand_start", { dealer: n(e.dealer), wind: { zh: WIND_ZH[w] || "", en: WIND_EN[w] || "" } }),
        ...(e.items || []).map((u) => ` · ${replayText(u, n(u.seat))}`)];
    }
    case "item": return replayText(e, n(e.seat));
    case "dice": return L("replay.dice", { dice: (e.dice || []).join(" ") });
    case "jing": return L("replay.jing", { indicator: tl(e.indicator), zheng: tl(e.zheng), fu: tl(e.fu) });
    case "flower": return [L("replay.flower", v), e.replacement ? [" → ", bi(tileZh(e.replacement), tileEn(e.replacement))] : ""];
    case "draw": return L(e.tail ? "replay.draw_tail" : "replay.draw", v);
    case "chow": return L("replay.chow", { who: v.who, tiles: { zh: e.tiles.map(tileZh).join(""), en: e.tiles.map(tileEn).join(", ") } });
    case "kong": return L(`replay.kong.${["exposed", "added", "concealed"].includes(e.kind) ? e.kind : "exposed"}`, v);
    case "discard": case "pung": case "add_kong_declared": case "robbed": case "false_win": return L(`replay.${e.type}`, v);
    case "win": return L(e.from === null || e.from === undefined ? "replay.win_self" : "replay.win_from",
      { who: v.who, points: e.points, from: n(e.from) });
    case "payment": return L("replay.payment", { deltas: e.deltas.map(signed).join(" ") });
    case "deal": case "exhausted": case "hand_end": return L(`replay.${e.type}`);
    default: return e.type;
  }
}

export function mount(root, arg, app) {
  // #replay/<id>[/review], or #replay/s/<token>: a hand one of its players shared
  const shareToken = /^s\/([A-Za-z0-9_-]{16,32})$/.exec(arg || "");
  const id = shareToken ? -1 : parseInt(arg, 10);
  const wantReview = /\/review$/.test(arg || "");
  const stageBox = h("div.stage-box#replay-stage");
  const side = h("aside.table-side.replay-side#replay-side");
  root.append(h("section.table-page.replay-page", stageBox, side));
  if (!id) {
    side.append(h("p.form-error", L("replay.no_hand_id_in_the_address_replay")));
    return null;
  }
  side.append(h("p", L("loading")));
  let data = null;
  let room = null; // the hand's room as /api/rooms describes it (its names), when it still exists
  let names = ["E", "S", "W", "N"].map((w) => tr(`wind.${w}`));
  let pos = 0; // events applied
  let timer = null;
  let speed = 1;
  let bottom = 0;
  let stage = null;
  let panel = null;

  let model = null; // the table after model.n events: a step forward applies only the events after them

  function modelAt(n) {
    if (!model || model.n > n) model = new HandModel(null, true); // a step back starts again
    model.applyEvents(data.events.slice(model.n, n));
    return model;
  }

  function draw() {
    const m = modelAt(pos);
    const seats = names.map((name) => ({ name, bot: false, online: true }));
    const over = pos >= data.events.length;
    const next = renderStage(m, {
      bottom,
      names: seats,
      reveal: true,
      noRel: true,
      bottomSize: "md",
      bottomMeldSize: "md",
      deltas: over ? (data.result && data.result.deltas) : null,
    });
    if (stage) stage.replaceWith(next);
    else stageBox.append(next);
    stage = next;
    fitStage(stageBox, stage);
    document.getElementById("replay-pos").textContent = `${pos} / ${data.events.length}`;
    const slider = document.getElementById("replay-slider");
    slider.value = String(pos);
    const log = document.getElementById("replay-log");
    for (const li of log.children) li.classList.toggle("on", Number(li.dataset.i) === pos - 1);
    if (panel) panel.mark(pos);
    const cur = log.querySelector(".on");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    document.getElementById("replay-play").replaceChildren(timer ? L("replay.pause") : L("replay.play"));
    const res = document.getElementById("replay-result");
    clear(res);
    if (over) res.append(resultBox());
  }

  function resultBox() {
    const r = data.result || {};
    const win = r.win;
    const box = h("div.card.replay-result");
    if (win) {
      box.append(h("h3", L("replay.win_head", { name: names[win.seat], points: win.points })), winHandEl(win),
        h("table.fans", h("tbody", (win.fans || []).map((f) => h("tr",
          h("td", { dataset: { langFree: "" } }, f.zh || ""), h("td", { dataset: { langFree: "" } }, f.name || ""), h("td.num", "points" in f ? `${f.points}×${f.count || 1}` : `×${f.factor}`))))));
    } else if (r.void) {
      box.append(h("h3", L("replay.void")), h("p.muted", r.void));
    } else {
      box.append(h("h3", L("replay.exhaustive_draw")));
    }
    // the coins only for the hand's own players (the server leaves them out for anyone else)
    const coins = r.coins ? [h("th.num", L("table.coins"))] : [];
    box.append(h("table.seats-result", h("thead", h("tr", h("th", L("table.player")), h("th.num", L("table.score")), ...coins)),
      h("tbody", [0, 1, 2, 3].map((s) => h("tr", h("td", names[s]), h("td.num", signed((r.deltas || [])[s])),
        ...(r.coins ? [h("td.num", signed(r.coins[s]))] : []))))));
    return box;
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  function play() {
    if (timer) {
      stop();
      draw();
      return;
    }
    if (pos >= data.events.length) pos = 0;
    timer = setInterval(() => {
      if (pos >= data.events.length) {
        stop();
        draw();
        return;
      }
      pos += 1;
      // skip the bookkeeping events so every tick shows a move
      while (pos < data.events.length && ["payment", "dice"].includes(data.events[pos - 1].type)) pos += 1;
      draw();
    }, 700 / speed);
    draw();
  }

  function step(k) {
    stop();
    pos = Math.max(0, Math.min(data.events.length, pos + k));
    draw();
  }

  function build() {
    clear(side);
    const mine = [0, 1, 2, 3].filter((s) => app.me && (data.players || [])[s] === app.me.id);
    if (wantReview && mine.length) bottom = mine[0];
    panel = reviewPanel(data.id, mine, (at) => {
      stop();
      pos = at;
      draw();
    });
    const ev = data.events;
    const log = h("ol.replay-log#replay-log", ev.map((e, i) => h("li", {
      dataset: { i },
      on: {
        click: () => {
          stop();
          pos = i + 1;
          draw();
        },
      },
    }, describe(e, names))));
    const slider = h("input#replay-slider", { type: "range", min: "0", max: String(ev.length), value: "0" });
    slider.addEventListener("input", () => {
      stop();
      pos = Number(slider.value);
      draw();
    });
    const speedSel = h("select#replay-speed", SPEEDS.map((s) => h("option", { value: String(s), selected: s === 1 }, `${s}×`)));
    speedSel.addEventListener("change", () => {
      speed = Number(speedSel.value);
      if (timer) {
        stop();
        play();
      }
    });
    const viewSel = h("select#replay-bottom", [0, 1, 2, 3].map((s) => h("option", { value: String(s), selected: s === bottom }, tr("replay.seat_option", { n: s, name: names[s] }))));
    viewSel.addEventListener("change", () => {
      bottom = Number(viewSel.value);
      draw();
    });
    side.append(
      h("div.card",
        h("h3", L("table.replay"), ` #${data.id}`),
        data.yours ? shareBox() : null,
        data.shared ? h("div.small#shared-note", L("replay.a_hand_shared_by_one_of_its_play")) : null,
        h("div.small", L("replay.meta", { room: room ? { zh: roomNames(room)[0], en: roomNames(room)[1] } : data.room,
          rules: { zh: rulesetName(data.rules)[0], en: rulesetName(data.rules)[1] } }),
          " · ", L("table.table_label"), " ", h("span", LANG_FREE, data.table)),
        h("div.small.mono", { title: data.seed_hash }, L("replay.seed_hash"), " ", h("span", LANG_FREE, `${data.seed_hash.slice(0, 20)}…`)),
        h("div.small.mono", { title: data.seed }, L("replay.seed"), " ", h("span", LANG_FREE, `${data.seed.slice(0, 20)}…`)),
        h("div.small", L("replay.every_hand_is_shown_the_hand_is"))),
      h("div.card.replay-controls",
        h("div.row",
          h("button.btn#replay-start", { i18n: { title: "replay.start" }, on: { click: () => step(-1e9) } }, "|◀"),
          h("button.btn#replay-back", { i18n: { title: "replay.step_back" }, on: { click: () => step(-1) } }, "◀"),
          h("button.btn.primary#replay-play", { on: { click: play } }, L("replay.play")),
          h("button.btn#replay-step", { i18n: { title: "replay.step" }, on: { click: () => step(1) } }, "▶"),
          h("button.btn#replay-end", { i18n: { title: "replay.end" }, on: { click: () => step(1e9) } }, "▶|")),
        h("div.row", slider, h("span.mono#replay-pos", "")),
        h("div.row", h("label", L("replay.speed"), speedSel), h("label", L("replay.view"), viewSel))),
      h("div#replay-result"),
      panel.el,
      h("div.card.log-card", h("h3", L("replay.events")), log),
    );
    panel.logMarks(log);
    draw();
    if (wantReview) panel.el.scrollIntoView({ block: "nearest" });
  }

  // with the login when there is one: a private table's hand is its players' only, and only they
  // see who sat where
  function shareBox() {
    // private by default: a player of the hand makes its link (and may take it back)
    const out = h("span.small.mono#share-url", data.share ? `${location.origin}/#replay/s/${data.share}` : "");
    const toggle = h("button.btn.small#share-hand", {
      on: {
        click: async () => {
          const d = data.share
            ? await api(`/api/hands/${data.id}/share`, { method: "DELETE" })
            : await api(`/api/hands/${data.id}/share`, { method: "POST" });
          data.share = d.token;
          out.textContent = d.token ? `${location.origin}/#replay/s/${d.token}` : "";
          toggle.replaceChildren(d.token ? L("replay.unshare") : L("replay.share_link"));
          if (d.token && navigator.clipboard) navigator.clipboard.writeText(out.textContent).catch(() => {});
        },
      },
    }, data.share ? L("replay.unshare") : L("replay.share_link"));
    return h("div.share", toggle, " ", out);
  }

  api(shareToken ? `/api/shared/${shareToken[1]}` : `/api/hands/${id}`).then(async (d) => {
    data = d;
    const ids = [...new Set((d.players || []).filter((x) => x !== null))];
    const profiles = {};
    await Promise.all([...ids.map((pid) => api(`/api/players/${pid}`, { auth: false })
      .then((p) => { profiles[pid] = p.name; }).catch(() => {})),
    api("/api/rooms", { auth: false }).then((rs) => { room = rs.find((r) => r.id === d.room) || null; }).catch(() => {})]);
    const players = d.players || [null, null, null, null];
    // bots of one kind share an account: tell them apart by their seat's wind in this hand, as the
    // plates show it (the dealer is East), not by the seat's index
    const start = (d.events || []).find((e) => e.type === "hand_start");
    const dealer = start && typeof start.dealer === "number" ? start.dealer : 0;
    names = players.map((pid, s) => {
      const w = "ESWN"[(s - dealer + 4) % 4];
      const wind = tr(`wind1.${w}`);
      const botName = ((d.result && d.result.seat_names) || [])[s];
      if (botName) return botName; // a bot: as the table named it (fan-bot-1), not its account
      if (pid === null) { // not yours: no names ("北家 North" in 中/EN)
        const m = msg("replay.seat_of", { wind: { zh: WIND_ZH[w], en: WIND_EN[w] } });
        return t(m.zh, m.en).replace(" · ", " ");
      }
      const base = profiles[pid] ? profiles[pid] : `#${pid}`;
      return players.filter((x) => x === pid).length > 1 ? `${base} (${wind})` : base;
    });
    build();
  }).catch((e) => {
    clear(side);
    side.append(h("p.form-error", L("replay.cannot_load", { id, error: e.message })),
      h("a.btn", { href: app.me ? `#player/${app.me.id}` : "#lobby" }, L("replay.back")));
  });

  const onResize = () => stage && fitStage(stageBox, stage);
  window.addEventListener("resize", onResize);
  const onKey = (e) => {
    if (!data || (e.target && ["INPUT", "SELECT"].includes(e.target.tagName))) return;
    if (e.key === "ArrowRight") step(1);
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === " ") {
      e.preventDefault();
      play();
    }
  };
  window.addEventListener("keydown", onKey);
  return () => {
    stop();
    window.removeEventListener("resize", onResize);
    window.removeEventListener("keydown", onKey);
  };
}
