// The phone page of one table (majiang.tournament.adapters.table_entry): your seat's PIN (it says
// which seat you are), enter, confirm — each phone for its own seat only.
(function () {
  "use strict";
  const [eventId, session, table] = document.body.dataset.table.split("|");
  const api = `/api/tournaments/${encodeURIComponent(eventId)}/t/${session}/${table}`;
  const store = `majiang-t:${eventId}:${session}:${table}`;
  const app = document.getElementById("app");
  const WINDS = ["东 E", "南 S", "西 W", "北 N"];
  let pin = localStorage.getItem(store + ":pin") || "";
  let seat = null;  // the seat of the PIN, as the server says (state.you)
  // a random id of this phone, for the table's log of who proposed and confirmed from where
  let device = localStorage.getItem("majiang-device");
  if (!device) {
    device = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("majiang-device", device);
  }
  let state = null;
  const blank = () => ({ winner: null, discarder: null, points: "", flowers: 0, falseWins: [], penalties: [],
                         fans: [], query: "", pen: { seat: 0, code: "warning", points: "0" } });
  let FANS = null;  // the 81 fans (GET …/fans, once): zh, pinyin, initials, en, points, flowers
  const CODES = [["warning", "警告 Warning"], ["misconduct", "违例 Misconduct"], ["late", "迟到 Late"],
                 ["empty_call", "空叫 Empty call"], ["deceptive_win", "诈和 Deceptive win"]];
  let form = blank();
  let message = "";

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") e.addEventListener("click", v);
      else if (k === "oninput") e.addEventListener("input", v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids) e.append(k);
    return e;
  }

  async function call(path, body) {
    const r = await fetch(api + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json", "X-Table-Pin": pin, "X-Device": device },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(typeof data.detail === "string" ? data.detail : `HTTP ${r.status}`);
    return data;
  }

  async function load() {
    if (!pin) return render();
    try {
      const { clock: c, ...fresh } = await call("");
      setClock(c);
      if (state && JSON.stringify(fresh) === JSON.stringify(state)) return;  // the form keeps what is typed
      state = fresh;
      seat = fresh.you === null || fresh.you === undefined ? null : String(fresh.you);
      localStorage.setItem(store + ":pin", pin);
    } catch (e) {
      state = null;
      message = e.message;
      pin = "";
      localStorage.removeItem(store + ":pin");
    }
    render();
  }

  function take(data) { const { clock: c, ...rest } = data; setClock(c); state = rest; }

  // the session clock: the time left, counted down here from the server's remaining_s (not the phone's clock)
  let clock = null;
  function setClock(c) {
    clock = c && c.remaining_s !== null && c.remaining_s !== undefined
      ? { ...c, end: Date.now() + c.remaining_s * 1000 } : null;
    tick();
  }
  function tick() {
    const box = document.getElementById("clock");
    if (!box) return;
    if (state && state.time_called) { box.textContent = "时间到 Time called"; box.className = "over"; return; }
    if (!clock) { box.textContent = ""; box.className = ""; return; }
    const left = Math.max(0, Math.round((clock.end - Date.now()) / 1000));
    const hms = `${Math.floor(left / 3600)}:${String(Math.floor(left / 60) % 60).padStart(2, "0")}:` +
      String(left % 60).padStart(2, "0");
    box.className = left === 0 ? "over" : left <= clock.warn * 60 ? "warning" : "";
    box.textContent = left === 0 ? "0:00:00 时间到 Time is up: the referee calls time" : `剩余 Time left ${hms}`;
  }

  // 第六条: at the time call the hand in play is finished; no new hand starts; scored as it stands
  function timeCallView() {
    const tc = state.time_call;
    if (!tc) return null;
    return el("div", { class: "box called", id: "time-call" }, el("h2", {}, "时间到 Time called"),
      el("p", {}, tc.hand_in_play
        ? `打完第 ${tc.hand_in_play} 盘（进行中）并录入，不再开新盘。 Finish hand ${tc.hand_in_play} (in play) and ` +
          "enter it; no new hand starts. The session is scored as it stands."
        : "不再开新盘，本局按现有成绩计分。 No new hand: the session is scored as it stands."));
  }

  function pinView() {
    const input = el("input", { id: "pin", inputmode: "numeric", autocomplete: "off", placeholder: "1234 5678" });
    return [
      el("h1", {}, `第 ${session} 局 第 ${table} 桌 · Session ${session} Table ${table}`),
      el("label", { for: "pin" }, "你的座位密码（座位条上） Your seat PIN (on your seat slip)"), input,
      el("button", { class: "go", id: "pin-go", onclick: () => { pin = input.value.trim(); message = ""; load(); } },
         "进入 Open"),
    ];
  }

  // each player with his seat wind in the hand being entered (the seats move after hands 4, 8, 12)
  function names() {
    const nh = state.next_hand;
    return state.players.map((p) => `${WINDS[nh ? nh.winds[p.seat] : p.seat]} ${p.name}`);
  }

  function handHead() {
    const nh = state.next_hand;
    if (!nh) return null;
    const dealerName = state.players[nh.dealer].name;
    return el("p", { id: "hand-head" },
      `第 ${nh.no} 盘 · ${WINDS[nh.prevalent].split(" ")[0]}风圈 · 庄家 ${dealerName} · Hand ${nh.no}, ` +
      `${["East", "South", "West", "North"][nh.prevalent]} round, dealer ${dealerName}`);
  }

  function choice(label, key, options) {
    const wrap = el("div", { class: "row" });
    options.forEach(([value, text]) => {
      wrap.append(el("button", { class: form[key] === value ? "on" : "", "data-pick": `${key}:${value}`,
        onclick: () => { form[key] = value; render(); } }, text));
    });
    return [el("h2", {}, label), wrap];
  }

  // the fan search: Chinese, pinyin initials (qys → 清一色), pinyin, English (the server's fan_picker.search)
  const fold = (t) => t.toLowerCase().replace(/\s+/g, "");
  function matches(q) {
    q = fold(q);
    if (!q || !FANS) return [];
    return FANS.filter((f) => f.zh.includes(q) || f.initials.startsWith(q) || f.pinyin.startsWith(q) ||
      fold(f.en).includes(q))
      .sort((a, b) => (![a.initials, a.zh, a.pinyin].includes(q)) - (![b.initials, b.zh, b.pinyin].includes(q)) ||
        a.no - b.no);
  }
  let fansAsked = false;  // one request however often the form is drawn before the answer comes
  async function loadFans() {
    if (FANS || fansAsked) return;
    fansAsked = true;
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(eventId)}/fans`);
      if (r.ok) { FANS = (await r.json()).fans; render(); }
    } catch (e) { /* the fan total field still works */ }
    fansAsked = false;
  }
  const fanPoints = () => form.fans.reduce((s, zh) => s + FANS.find((f) => f.zh === zh).points, 0);
  function pickFan(f) {
    if (f.flowers) form.flowers = Math.min(8, form.flowers + 1);  // 花牌 goes in the flowers field
    else { form.fans.push(f.zh); form.points = String(fanPoints()); }
    form.query = "";
    render();
    document.getElementById("fan-search")?.focus();
  }
  function dropFan(zh) {
    form.fans.splice(form.fans.indexOf(zh), 1);
    form.points = form.fans.length ? String(fanPoints()) : "";
    render();
  }
  function fanSearch() {
    const results = el("div", { id: "fan-results" });
    const show = () => {
      results.replaceChildren(...matches(form.query).slice(0, 8).map((f) => el("button", { "data-fan": f.zh,
        class: "fan", onclick: () => pickFan(f) }, `${f.zh} ${f.en} · ${f.points} 番`)));
    };
    const box = el("input", { id: "fan-search", type: "search", autocomplete: "off", value: form.query,
      placeholder: "清一色 · qys · full flush", oninput: (e) => { form.query = e.target.value; show(); } });
    show();
    const counts = {};
    form.fans.forEach((zh) => { counts[zh] = (counts[zh] || 0) + 1; });
    const chips = el("div", { id: "fan-chips" }, ...Object.entries(counts).map(([zh, k]) => {
      const f = FANS.find((x) => x.zh === zh);
      return el("button", { class: "chip", "data-chip": zh, onclick: () => dropFan(zh) },
        k > 1 ? `${zh} ${f.points}×${k} ✕` : `${zh} ${f.points} ✕`);
    }));
    return [el("label", { for: "fan-search" }, "番种 Fans (搜索 search: 中文 · 拼音 qys · English)"), box, results, chips];
  }
  function totalLine() {
    const pts = Number(form.points || 0);
    const low = state.min_fan && pts < state.min_fan;
    return el("p", { id: "fan-total", class: low ? "err" : "" }, `合计 Total ${pts} 番` +
      (form.flowers ? ` + ${form.flowers} 花 = ${pts + form.flowers}` : "") +
      (low ? ` · 不足 ${state.min_fan} 番：记为错和 below ${state.min_fan}: a false win` : ""));
  }

  function handForm() {
    const n = names();
    const parts = choice("和牌 Winner", "winner", [...n.map((x, i) => [i, x]), [-1, "荒牌 Draw"]]);
    if (form.winner !== null && form.winner >= 0) {
      parts.push(...choice("点炮 Discarder", "discarder",
        [[-1, "自摸 Self-drawn"], ...n.map((x, i) => [i, x]).filter(([i]) => i !== form.winner)]));
      if (FANS) parts.push(...fanSearch()); else loadFans();
      const total = () => document.getElementById("fan-total")?.replaceWith(totalLine());
      const pts = el("input", { id: "points", type: "number", inputmode: "numeric", min: "0", value: form.points,
        readonly: form.fans.length > 0, oninput: (e) => { form.points = e.target.value; total(); } });
      const fl = el("input", { id: "flowers", type: "number", inputmode: "numeric", min: "0", max: "8",
        value: form.flowers, oninput: (e) => { form.flowers = Number(e.target.value || 0); total(); } });
      parts.push(el("div", { class: "row" },
        el("div", {}, el("label", { for: "points" }, "番数 Fan total (花牌除外 without flowers)"), pts),
        el("div", {}, el("label", { for: "flowers" }, "花牌 Flowers"), fl)), totalLine());
      parts.push(el("p", {}, el("a", { href: "/#calc", target: "_blank" }, "番种计算器 Fan calculator")));
    }
    const fw = el("div", { class: "row4" });
    n.forEach((x, i) => fw.append(el("button", { class: form.falseWins.includes(i) ? "on" : "",
      "data-false": i, onclick: () => {
        form.falseWins = form.falseWins.includes(i) ? form.falseWins.filter((s) => s !== i) : [...form.falseWins, i];
        render(); } }, x)));
    parts.push(el("h2", {}, "错和 False win: pays 30 (10 to each other player)"), fw);
    // other penalties of this hand: seat, code, points, then add (kept in the form, like all that is typed)
    const pen = form.pen;
    const pSeat = el("select", { id: "pen-seat", oninput: (e) => { pen.seat = Number(e.target.value); } },
      ...n.map((x, i) => el("option", { value: i, selected: pen.seat === i }, x)));
    const pCode = el("select", { id: "pen-code", oninput: (e) => { pen.code = e.target.value; } },
      ...CODES.map(([v, t]) => el("option", { value: v, selected: pen.code === v }, t)));
    const pPts = el("input", { id: "pen-points", type: "number", inputmode: "numeric", min: "0", value: pen.points,
      oninput: (e) => { pen.points = e.target.value; } });
    parts.push(el("h2", {}, "罚分 Penalty"), el("div", { class: "row" }, pSeat, pCode), el("div", { class: "row" }, pPts,
      el("button", { id: "pen-add", onclick: () => {
        form.penalties.push({ seat: pen.seat, code: pen.code, points: Number(pen.points || 0) }); render(); } },
      "加罚分 Add")));
    form.penalties.forEach((p, k) => parts.push(el("button", { "data-pen": k, onclick: () => { form.penalties.splice(k, 1); render(); } },
      `✕ ${n[p.seat]} ${p.code}${p.points ? " −" + p.points : ""}`)));
    parts.push(el("button", { class: "go", id: "propose", onclick: propose }, `提交第 ${state.hands + 1} 盘 Enter hand ${state.hands + 1}`));
    return parts;
  }

  async function propose() {
    const hand = { winner: form.winner >= 0 ? form.winner : null, flowers: form.flowers, false_wins: form.falseWins,
      penalties: form.penalties,
      discarder: form.winner >= 0 && form.discarder >= 0 ? form.discarder : null,
      points: form.winner >= 0 ? Number(form.points || 0) : null,
      fans: form.winner >= 0 ? form.fans : [] };
    if (form.winner === null) { message = "选择和牌者 Pick the winner (or draw)"; return render(); }
    try {
      take(await call("/propose", { seat: Number(seat), hand }));
      form = blank();
      message = "";
    } catch (e) { message = e.message; }
    render();
  }

  function describe(p) {
    const n = names();
    if (p.totals) return "局分 Totals " + p.totals.join(", ");
    if (p.penalty) return `罚分 Penalty ${n[p.penalty.seat]} ${p.penalty.code} −${p.penalty.points}`;
    const h = p.hand;
    const pens = (h.penalties || []).map((x) => ` · ${n[x.seat]} ${x.code}${x.points ? " −" + x.points : ""}`).join("");
    if (h.winner === null) return "荒牌 Draw" + (h.false_wins.length ? " · 错和 " + h.false_wins.map((s) => n[s]).join(", ") : "") + pens;
    return `${n[h.winner]} ${h.discarder === null ? "自摸 self-drawn" : "← " + n[h.discarder]} · ${h.points} 番` +
      (h.fans && h.fans.length ? ` (${h.fans.join(" ")})` : "") +
      (h.flowers ? ` · ${h.flowers} 花` : "") + (h.false_wins.length ? " · 错和 " + h.false_wins.map((s) => n[s]).join(", ") : "") + pens;
  }

  function pendingView(p) {
    const mine = p.confirmed.includes(Number(seat));
    const box = el("div", { class: "box warn", id: "pending" },
      el("h2", {}, `待确认 To confirm: ${describe(p)}`),
      el("p", {}, `已确认 Confirmed: ${p.confirmed.map((s) => WINDS[s]).join(" ")} (${p.confirmed.length}/4)`));
    if (!mine) {
      box.append(el("button", { class: "go", id: "confirm", onclick: () => act("/confirm", p) }, "确认 Confirm"));
    }
    box.append(el("button", { id: "reject", onclick: () => act("/reject", p) }, "有误 Reject"));
    return box;
  }

  async function act(path, p) {
    try { take(await call(path, { seat: Number(seat), id: p.id })); message = ""; } catch (e) { message = e.message; }
    render();
  }

  function scoresView() {
    const t = el("table", { id: "scores" });
    const n = names();
    state.players.forEach((p, i) => t.append(el("tr", {}, el("td", {}, n[i]),
      el("td", { class: "n" }, String(state.scores[i])))));
    return t;
  }

  // a redraw (another phone's entry, the referee's time call, the fans arriving) keeps the field being
  // typed in focused, with its caret: the phone's keyboard stays open and the next letters land there
  function render() {
    const active = app.contains(document.activeElement) && document.activeElement.id ? document.activeElement : null;
    const caret = active && active.type === "search" ? [active.selectionStart, active.selectionEnd] : null;
    draw();
    const again = active && document.getElementById(active.id);
    if (!again) return;
    again.focus();
    if (caret) again.setSelectionRange(...caret);
  }

  function draw() {
    app.replaceChildren();
    if (!state) { app.append(...pinView()); }
    else {
      app.append(el("h1", {}, `${state.name || state.event} · 第 ${session} 局 第 ${table} 桌`));
      app.append(el("p", { id: "clock" }));
      tick();
      app.append(el("p", { id: "progress" }, state.totals ? "快速录入 Totals entered" : `${state.hands}/16 盘 hands` +
        (state.time_called ? " · 时间到 time called" : "")));
      const called = timeCallView();
      if (called) app.append(called);
      const head = handHead();
      if (head && !state.pending) app.append(head);
      app.append(scoresView());
      if (seat === null) app.append(el("p", {}, "裁判视图 Referee view"));
      else if (state.pending) app.append(pendingView(state.pending));
      else if (state.next_hand) app.append(...handForm());
      if (seat !== null) app.append(el("p", { id: "you" }, el("small", {}, `你是 You are ${names()[Number(seat)]} · `),
        el("a", { href: "#", id: "forget-pin", onclick: (e) => {
          e.preventDefault(); pin = ""; state = null; seat = null; localStorage.removeItem(store + ":pin"); render(); } },
        "换人 another player")));
    }
    if (message) app.append(el("p", { class: "err", id: "message" }, message));
  }

  load();
  setInterval(() => { if (state && !document.hidden) load(); }, 4000);
  setInterval(tick, 1000);
})();
