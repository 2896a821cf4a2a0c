// The projector page (majiang.tournament.adapters.table_entry: /tournaments/EVENT/projector): standings
// in pages that fit the screen, turned on a steady timer; team standings; the session clock and a
// "time called" banner.  Data is refetched in the background without resetting the page shown.
(function () {
  "use strict";
  const eventId = document.body.dataset.event;
  const every = Math.max(1, Number(document.body.dataset.every) || 12) * 1000;
  const base = `/api/tournaments/${encodeURIComponent(eventId)}`;
  let data = null, clock = null, page = 0, clockAt = 0;
  let after = Number(document.body.dataset.after) || null;  // the standings after session K (null: latest)

  function fmtScore(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }
  function hms(s) {
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
  }

  async function refresh() {
    try {
      const q = after ? `?after=${after}` : "";
      const [d, c] = await Promise.all([fetch(`${base}/standings${q}`).then((r) => r.json()),
                                        fetch(`${base}/clock`).then((r) => r.json())]);
      if (!d.groups) return;  // e.g. a session without results yet: keep what is shown
      data = d; clock = c; clockAt = Date.now();
      drawClock();
      drawSelector();
      if (!document.querySelector("#rows tr")) draw();
    } catch (e) { /* keep what is shown; try again on the next tick */ }
  }

  function pages() {
    // every page of individual standings, then the team standings of each group that has teams
    const out = [];
    // rows of 46 px + a 1 px rule below the table's top (header, banner and caption above it), less
    // its head row and a margin for the page counter
    const rowH = 47, top = document.querySelector("table").getBoundingClientRect().top;
    const free = window.innerHeight - top - 40 - 48;
    const per = Math.max(3, Math.floor(free / rowH));
    for (const g of data.groups) {
      for (let i = 0; i < g.standings.length; i += per) out.push({ kind: "players", group: g, rows: g.standings.slice(i, i + per), from: i, per });
      if (g.teams.length) for (let i = 0; i < g.teams.length; i += per) out.push({ kind: "teams", group: g, rows: g.teams.slice(i, i + per), from: i, per });
    }
    return out;
  }

  function drawSelector() {
    // one option per session with results, and "latest"; kept as it is while the operator has it open
    const sel = document.getElementById("after");
    const scored = Math.max(0, ...data.groups.map((g) => g.sessions_available || 0));
    if (sel.options.length === scored + 1 && document.activeElement === sel) return;
    const opts = [["", "最新 latest"]];
    for (let k = 1; k <= scored; k += 1) opts.push([String(k), `第${k}局后 after session ${k}`]);
    sel.replaceChildren(...opts.map(([v, t]) => { const o = document.createElement("option"); o.value = v; o.textContent = t; return o; }));
    sel.value = after ? String(after) : "";
  }

  function move(m) { return m.startsWith("▲") ? "m up" : m.startsWith("▼") ? "m down" : "m same"; }

  function cell(tag, text, cls) { const e = document.createElement(tag); e.textContent = text; if (cls) e.className = cls; return e; }

  function draw() {
    if (!data) return;
    const all = pages();
    if (!all.length) return;
    page = page % all.length;
    const p = all[page];
    const head = document.getElementById("head"), rows = document.getElementById("rows");
    head.replaceChildren(); rows.replaceChildren();
    const hr = document.createElement("tr");
    // an individual event (no teams) has no team column
    const teamCol = p.kind === "players" && p.group.teams.length > 0;
    const cols = p.kind === "players" ? ["名次 Rank", "升降", "选手 Player", ...(teamCol ? ["队 Team"] : []), "标准分 Std", "比赛分 Score"]
                                      : ["名次 Rank", "升降", "队 Team", "队员 Members", "标准分 Std", "比赛分 Score"];
    cols.forEach((c) => hr.append(cell("th", c)));
    head.append(hr);
    for (const r of p.rows) {
      const tr = document.createElement("tr");
      if (p.kind === "players") {
        const m = r.movement || "";
        tr.append(cell("td", String(r.rank) + (r.disqualified ? " DQ" : ""), "n"), cell("td", m.replace(" new", ""), move(m)),
                  cell("td", (r.name || r.player) + (r.withdrawn ? " · 退赛" : "") + (r.late_entry ? " · 补报" : ""), "name"),
                  ...(teamCol ? [cell("td", r.team_name || r.team || "")] : []),
                  cell("td", fmtScore(r.standard_total), "n b"), cell("td", String(r.match_total), "n"));
      } else {
        const m = r.movement || "";
        tr.append(cell("td", String(r.rank), "n"), cell("td", m.replace(" new", ""), move(m)), cell("td", r.name || r.team, "name"),
                  cell("td", (r.member_names || r.members).join(", "), "members"),
                  cell("td", fmtScore(r.standard_total), "n b"), cell("td", String(r.match_total), "n"));
      }
      rows.append(tr);
    }
    const g = p.group;
    document.getElementById("what").textContent =
      `${p.kind === "players" ? "个人名次 Standings" : "团体名次 Teams"} · ${g.name || ""} ${p.from + 1}–${p.from + p.rows.length}` +
      ` / ${p.kind === "players" ? g.standings.length : g.teams.length} · ` +
      (data.after ? `第${data.after}局后 after session ${data.after}` : `${g.sessions_scored}/${g.sessions_drawn} 局 sessions`) +
      (g.final === false ? " · 暂定 provisional" : "");
    document.getElementById("pager").textContent = `${page + 1}/${all.length}`;
    document.getElementById("title").textContent = data.name || data.event;
  }

  function drawClock() {
    const el = document.getElementById("clock"), banner = document.getElementById("banner");
    if (!clock) return;
    const left = clock.remaining_s === null ? null : Math.max(0, clock.remaining_s - Math.floor((Date.now() - clockAt) / 1000));
    el.textContent = left === null ? `第 ${clock.session} 局 Session ${clock.session}` : `第 ${clock.session} 局 · ${hms(left)}`;
    const phase = left === null ? "not started" : left === 0 ? "over" : left <= clock.warn * 60 ? "warning" : "running";
    el.className = phase.replace(" ", "-");
    const called = clock.called || [];
    if (phase === "over" || called.length) {
      banner.hidden = false;
      banner.textContent = "时间到 Time called" + (called.length ? ` · 桌 tables ${called.join(", ")}` : " · 打完本盘 finish the hand in play");
    } else if (phase === "warning") {
      banner.hidden = false;
      banner.textContent = `还剩 ${Math.ceil(left / 60)} 分钟 ${Math.ceil(left / 60)} minutes left`;
    } else banner.hidden = true;
  }

  document.getElementById("after").addEventListener("change", (ev) => {
    after = Number(ev.target.value) || null;
    const url = new URL(window.location.href);
    if (after) url.searchParams.set("after", String(after)); else url.searchParams.delete("after");
    window.history.replaceState(null, "", url);
    page = 0;
    document.getElementById("rows").replaceChildren();  // the next data is drawn at once
    refresh().then(draw);
  });

  refresh().then(draw);
  setInterval(() => { page += 1; draw(); }, every);
  setInterval(drawClock, 1000);
  setInterval(refresh, 15000);
  window.addEventListener("resize", draw);
})();
