// The leaderboard (#leaderboard[/<rules>[/rank]], 排行榜): each ruleset's rated players and bots, best
// first (GET /api/leaderboard?rules=…), or its 段位 board from matches (…&by=rank); and the rating plot
// of a player page (an inline SVG, no library).

import { api } from "./api.js";
import { bi, clear, h, L } from "./util.js";
import { tr } from "./i18n.js";
import { defaultRuleset, loadRulesets, rulesetName, rulesets } from "./rulesets.js";

export function mount(root, arg, app) {
  const box = h("section.leaderboard-page#leaderboard");
  root.append(box);
  const [ruleArg, byArg] = (arg || "").split("/");
  let rules = ruleArg || defaultRuleset();
  const by = byArg === "rank" ? "rank" : "rating";
  const tabs = h("div.rules-tabs#leaderboard-rules");
  const byTabs = h("div.rules-tabs#leaderboard-by");
  const body = h("div#leaderboard-body", h("p", L("loading")));
  box.append(h("div.page-head", h("h1", L("leaderboard.leaderboard")),
    h("p.small", L(by === "rank" ? "leaderboard.rank_explained" : "leaderboard.rating_pairwise_elo_by_hand_scor"))),
  tabs, byTabs, body);

  function renderTabs() {
    clear(tabs);
    const names = rulesets().map((r) => r.name);
    for (const name of names.length ? names : rules ? [rules] : []) {
      const [zh, en] = rulesetName(name);
      const href = `#leaderboard/${name}${by === "rank" ? "/rank" : ""}`;
      tabs.append(h(`a.btn.small${name === rules ? ".primary" : ""}`, { href, dataset: { rules: name } }, bi(zh, en)));
    }
    clear(byTabs);
    for (const key of ["rating", "rank"]) {
      const href = `#leaderboard/${rules}${key === "rank" ? "/rank" : ""}`;
      byTabs.append(h(`a.btn.small${key === by ? ".primary" : ""}`, { href, dataset: { by: key } }, L(`leaderboard.by_${key}`)));
    }
  }

  function rankTable(players) {
    return h("table.hands.leaderboard-table#leaderboard-table",
      h("thead", h("tr", h("th.num", L("leaderboard.rank")), h("th", L("table.player")), h("th", L("leaderboard.level")),
        h("th.num", L("leaderboard.rank_points")), h("th.num", L("leaderboard.matches")))),
      h("tbody", players.map((p) => h(`tr.rank-row${app.me && app.me.id === p.account ? ".me" : ""}`,
        { dataset: { account: p.account, points: p.points, level: p.level, rank: p.rank } },
        h("td.num", p.rank),
        h("td", h("a.player-link", { href: `#player/${p.account}`, dataset: { langFree: "" } }, p.name)),
        h("td.level", bi(p.zh, p.en)),
        h("td.num.points", p.next === null ? `${p.points}` : `${p.points} / ${p.next}`),
        h("td.num", p.matches)))));
  }

  async function load() {
    try {
      const which = rules ? `rules=${encodeURIComponent(rules)}&` : ""; // none: the server's default
      const d = await api(`/api/leaderboard?${which}limit=100&by=${by}`, { auth: false });
      clear(body);
      if (!d.players.length) {
        body.append(h("p.empty", L(by === "rank" ? "leaderboard.no_ranks_yet" : "leaderboard.no_rated_hands_yet")));
        return;
      }
      if (by === "rank") {
        body.append(rankTable(d.players));
        return;
      }
      body.append(h("table.hands.leaderboard-table#leaderboard-table",
        h("thead", h("tr", h("th.num", L("leaderboard.rank")), h("th", L("table.player")), h("th.num", L("leaderboard.rating")), h("th.num", L("leaderboard.hands")))),
        h("tbody", d.players.map((p) => h(`tr.rank-row${app.me && app.me.id === p.account ? ".me" : ""}`,
          { dataset: { account: p.account, rating: p.rating, rank: p.rank } },
          h("td.num", p.rank),
          h("td", h("a.player-link", { href: `#player/${p.account}`, dataset: { langFree: "" } }, p.name), p.kind === "bot" ? h("span.badge", L("bot")) : null),
          h("td.num.rating", p.rating.toFixed(1)),
          h("td.num", p.hands))))));
    } catch (e) {
      clear(body).append(h("p.form-error", L("leaderboard.cannot_load", { error: e.message })));
    }
  }

  renderTabs();
  loadRulesets().then(renderTabs).catch(() => {});
  load();
  return null;
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

/** The rating history as a line plot: `points` are {hand, rating} oldest first (the first one's
 * `before` is where the line starts). */
export function ratingPlot(points, start) {
  const W = 640, H = 220, L = 48, R = 12, T = 12, B = 28;
  const ys = [start, ...points.map((p) => p.rating)];
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => L + (W - L - R) * (ys.length > 1 ? i / (ys.length - 1) : 0.5);
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-plot", id: "rating-plot", role: "img",
    "aria-label": `${tr("leaderboard.history")}: ${ys.map((v) => v.toFixed(1)).join(", ")}`, "data-points": ys.length });
  el.append(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "frame" }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    el.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    el.append(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v.toFixed(0)));
  }
  el.append(svg("text", { x: L, y: H - 8, class: "tick" }, tr("leaderboard.hands_axis")));
  el.append(svg("polyline", { points: ys.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: "line" }));
  ys.forEach((v, i) => {
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, class: "dot", "data-rating": v.toFixed(1) });
    const p = points[i - 1];
    dot.append(svg("title", {}, i ? `${p.hand ? `#${p.hand}` : `${i}`}: ${v.toFixed(1)}` : `${tr("leaderboard.start")} ${v.toFixed(1)}`));
    el.append(dot);
  });
  return el;
}

/** The player page's rating section: the current rating per ruleset and the plot of one ruleset. */
export function ratingSection(accountId) {
  const section = h("section.ratings#ratings", h("h2.section-title", L("leaderboard.rating")));
  api(`/api/players/${accountId}/ratings`).then((d) => {
    const names = Object.keys(d.ratings);
    if (!names.length) {
      section.append(h("p.empty", L("leaderboard.not_rated_yet_hands_with_two_or")));
      return;
    }
    // the first rated ruleset in the server's order (the default first)
    const rules = rulesets().map((r) => r.name).find((n) => names.includes(n)) || names[0];
    section.append(h("div.stats", names.map((n) => {
      const [zh, en] = rulesetName(n);
      return h("div.stat", h("div.v", { id: `rating-${n}`, dataset: { rating: d.ratings[n].rating } }, d.ratings[n].rating.toFixed(1)),
        h("div.l", L("leaderboard.ruleset_hands", { rules: { zh, en }, n: d.ratings[n].hands })));
    })));
    const pts = d.history.filter((c) => c.rules === rules);
    if (pts.length) section.append(h("div.plot-box", ratingPlot(pts, pts[0].before)));
  }).catch(() => {});
  return section;
}
