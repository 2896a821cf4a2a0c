// A player's page: #player/<id> (or #player/me) — statistics and recent hands with replay links (and, on
// your own page, review links: a review is for your own seat, and the coin statement), the rating plot.

import { api } from "./api.js";
import { bi, clear, dateText, fmtInt, h, L, pct, roomNames, signed, WIND_EN, WIND_ZH } from "./util.js";
import { statementSection } from "./statement.js";
import { ratingSection } from "./leaderboard.js";
import { rulesetName } from "./rulesets.js";

export function mount(root, arg, app) {
  const box = h("section.player-page#player-page", h("p", L("loading")));
  root.append(box);
  let id = arg === "me" || !arg ? (app.me && app.me.id) : parseInt(arg, 10);
  const load = async () => {
    if (!id && arg === "me") {
      const me = await app.refreshMe();
      id = me && me.id;
    }
    if (!id) {
      clear(box).append(h("p.form-error", L("player.log_in_to_see_your_statistics")), h("a.btn", { href: "#login" }, L("login.log_in")));
      return;
    }
    try {
      // a player's balance and hand history are theirs alone: the server sends them only with their token
      const mine = app.me && app.me.id === id;
      const [p, hands, rooms] = await Promise.all([api(`/api/players/${id}`),
        mine ? api(`/api/players/${id}/hands?limit=30`) : Promise.resolve(null),
        api("/api/rooms", { auth: false }).catch(() => [])]);
      render(p, hands, Object.fromEntries(rooms.map((r) => [r.id, r])));
    } catch (e) {
      clear(box).append(h("p.form-error", L("player.cannot_load", { id, error: e.message })));
    }
  };

  function stat(key, value, id2) {
    return h("div.stat", h("div.v", { id: id2 }, value), h("div.l", L(`player.stat.${key}`)));
  }

  function render(p, hands, rooms = {}) {
    clear(box);
    const mine = app.me && app.me.id === p.id;
    box.append(...[
      h("div.page-head",
        h("h1", h("span", { dataset: { langFree: "" } }, p.name), " ", p.kind === "guest" ? h("span.badge.guest", L("main.guest")) : p.kind === "bot" ? h("span.badge", L("bot")) : null),
        h("p.small", L("player.since", { date: dateText(p.since) }), mine ? [" · ", L("player.this_is_you")] : null)),
      h("div.stats#stats",
        stat("hands", fmtInt(p.hands), "stat-hands"),
        stat("win_rate", pct(p.win_rate), "stat-win-rate"),
        stat("deal_in", pct(p.deal_in_rate), "stat-deal-in"),
        stat("avg_fan", (p.avg_fan_on_win || 0).toFixed(1), "stat-avg-fan"),
        p.balance !== undefined ? stat("coins", fmtInt(p.balance), "stat-balance") : null,
        p.coins_won !== undefined ? stat("coins_won", signed(p.coins_won), "stat-coins-won") : null,
        stat("wins", fmtInt(p.wins), "stat-wins"),
        stat("escapes", fmtInt(p.escapes || 0), "stat-escapes"),
        stat("score", signed(p.score), "stat-score")),
      rankSection(p.ranks || {}),
      ratingSection(p.id),
      hands === null ? null : h("h2.section-title", L("player.recent_hands")),
      hands === null ? h("p.small#private-note", L("player.coins_and_hand_history_are_priva"))
      : hands.length
        ? h("div.hands-wrap", h("table.hands#recent-hands",
          h("thead", h("tr", h("th", L("player.hand")), h("th", L("player.when")), h("th", L("player.room")), h("th", L("player.seat")),
            h("th.num", L("table.score")), h("th.num", L("table.coins")), h("th", L("player.result")), h("th", ""))),
          h("tbody", hands.map((x) => h("tr", { dataset: { hand: x.hand } },
            h("td", `#${x.hand}`),
            h("td", dateText(x.at)),
            rooms[x.room] ? h("td", bi(...roomNames(rooms[x.room]))) : h("td", { dataset: { langFree: "" } }, x.room),
            h("td.seat-wind", { dataset: { wind: x.wind || "" } }, x.wind ? bi(WIND_ZH[x.wind], WIND_EN[x.wind]) : `#${x.seat}`),
            h(`td.num.${x.score > 0 ? "pos" : x.score < 0 ? "neg" : "zero"}`, signed(x.score)),
            h(`td.num.${x.coins > 0 ? "pos" : x.coins < 0 ? "neg" : "zero"}`, signed(x.coins)),
            h("td", x.won ? L("player.won", { fan: x.fan }) : "—"),
            h("td", h("a.btn.small.replay-link", { href: `#replay/${x.hand}` }, L("table.replay")),
              mine ? [" ", h("a.btn.small.review-link", { href: `#replay/${x.hand}/review` }, L("table.review"))] : null))))))
        : h("p.empty", L("player.no_hands_yet")),
      mine ? statementSection() : null].filter(Boolean));
  }

  load();
  return null;
}

/** 段位 per ruleset (from matches), with the points to the next level. */
function rankSection(ranks) {
  const names = Object.keys(ranks);
  if (!names.length) return null;
  return h("section.ranks#ranks", h("h2.section-title", L("player.rank")),
    h("div.stats", names.map((n) => {
      const [zh, en] = rulesetName(n);
      const r = ranks[n];
      const points = r.next === null ? `${r.points}` : `${r.points} / ${r.next}`;
      return h("div.stat", h("div.v", { id: `rank-${n}`, dataset: { level: r.level, points: r.points } }, bi(r.zh, r.en)),
        h("div.l", L("player.rank_line", { rules: { zh, en }, points, matches: r.matches })));
    })));
}
