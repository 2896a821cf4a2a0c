// The check-in desk (majiang.tournament.adapters.checkin_web: /tournaments/EVENT/checkin): the organiser
// token once, then one button per player; a tap checks him in, another takes it back.
(function () {
  "use strict";
  const eventId = document.body.dataset.event;
  const api = `/api/tournaments/${encodeURIComponent(eventId)}/checkin`;
  const tokenKey = `majiang-organiser-${eventId}`;
  const $ = (id) => document.getElementById(id);
  let state = null;

  function token() { return sessionStorage.getItem(tokenKey) || ""; }

  async function call(method, body, session) {
    const url = session ? `${api}?session=${session}` : api;
    const r = await fetch(url, {
      method,
      headers: { "Authorization": `Bearer ${token()}`, "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw Object.assign(new Error(data.detail || `HTTP ${r.status}`), { status: r.status });
    return data;
  }

  function button(p) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.player = p.id;
    b.className = p.checked_in ? "in" : "";
    b.textContent = (p.checked_in ? "✓ " : "") + (p.name || p.id);
    const small = document.createElement("small");
    small.textContent = p.checked_in ? `${p.id} · 已签到 in ${(p.at || "").slice(11, 16)}` : `${p.id} · 未签到 not in`;
    b.append(small);
    b.addEventListener("click", () => toggle(p));
    return b;
  }

  function draw() {
    if (!state) return;
    const q = $("filter").value.trim().toLowerCase().replace(/\s+/g, "");
    // by name, id, or a Chinese name's pinyin or its initials (赵磊: "zhaolei", "zl")
    const match = (p) => !q || p.name.toLowerCase().replace(/\s+/g, "").includes(q) || p.id.toLowerCase().includes(q) ||
      (p.pinyin && p.pinyin.startsWith(q)) || (p.initials && p.initials.startsWith(q));
    $("title").textContent = `签到 Check-in · ${state.name || state.event}`;
    $("session").value = state.session;
    $("required").checked = state.required;
    $("count").textContent = `${state.checked}/${state.expected} 已签到 in`;
    $("players").replaceChildren(...state.players.filter(match).map(button));
    $("extra").replaceChildren(...state.extra.filter(match).map(button));
    $("extra-h").hidden = !state.extra.length;
  }

  async function load(session) {
    try {
      state = await call("GET", null, session);
      $("login").hidden = true; $("desk").hidden = false;
      draw();
    } catch (e) {
      if (e.status === 401 || e.status === 403) {
        sessionStorage.removeItem(tokenKey);
        $("desk").hidden = true; $("login").hidden = false;
        $("login-err").textContent = token() || e.status === 403 ? e.message : "";
      } else $("msg").textContent = e.message;
    }
  }

  async function toggle(p) {
    $("msg").textContent = "…";
    try {
      state = await call("POST", { session: state.session, players: [p.id], undo: p.checked_in });
      $("msg").textContent = `${p.name || p.id}: ${p.checked_in ? "已取消 checked out" : "已签到 checked in"}`;
      draw();
    } catch (e) { $("msg").textContent = e.message; }
  }

  $("login").addEventListener("submit", (ev) => {
    ev.preventDefault();
    sessionStorage.setItem(tokenKey, $("token").value.trim());
    load(Number(document.body.dataset.session) || null);
  });
  $("session").addEventListener("change", () => load(Number($("session").value) || null));
  $("filter").addEventListener("input", draw);
  $("required").addEventListener("change", async () => {
    try {
      state = await call("POST", { session: state.session, required: $("required").checked });
      $("msg").textContent = state.required ? "签到后才排座 only checked-in players are seated" : "不需签到 everybody is seated";
      draw();
    } catch (e) { $("msg").textContent = e.message; }
  });
  if (token()) load(Number(document.body.dataset.session) || null);
  else $("login").hidden = false;
})();
