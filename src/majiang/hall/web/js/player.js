// A player's page: #player/<id> (or #player/me) — statistics and recent hands with replay links (and, on
// your own page, review links: a review is for your own seat, and the coin statement), the rating plot.

import { api } from "./api.js";
import { bi, clear, dateText, fmtInt, h, L, pct, signed, WIND_EN, WIND_ZH } from "./util.js";
import { statementSection } from "./statement.js";
import { ratingSection } from "./leaderboard.js";

export function mount(root, arg, app) {
  const box = h("section.player-page#player-page", h("p", "载入中… loading…"));
  root.append(box);
  let id = arg === "me" || !arg ? (app.me && app.me.id) : parseInt(arg, 10);
  const load = async () => {
    if (!id && arg === "me") {
      const me = await app.refreshMe();
      id = me && me.id;
    }
    if (!id) {
      clear(box).append(h("p.form-error", "请先登录 · Log in to see your statistics"), h("a.btn", { href: "#login" }, L("login.log_in")));
      return;
    }
    try {
      // a player's balance and hand history are theirs alone: the server sends them only with their token
      const mine = app.me && app.me.id === id;
      const [p, hands] = await Promise.all([api(`/api/players/${id}`),
        mine ? api(`/api/players/${id}/hands?limit=30`) : Promise.resolve(null)]);
      render(p, hands);
    } catch (e) {
      clear(box).append(h("p.form-error", `无法载入玩家 ${id} · Cannot load player ${id}: ${e.message}`));
    }
  };

  function stat(zh, en, value, id2) {
    return h("div.stat", h("div.v", { id: id2 }, value), h("div.l", bi(zh, en)));
  }

  function render(p, hands) {
    clear(box);
    const mine = app.me && app.me.id === p.id;
    box.append(...[
      h("div.page-head",
        h("h1", p.name, " ", p.kind === "guest" ? h("span.badge.guest", "游客 guest") : p.kind === "bot" ? h("span.badge", "机器人 bot") : null),
        h("p.small", `注册于 since ${dateText(p.since)}${mine ? " · 这是你 this is you" : ""}`)),
      h("div.stats#stats",
        stat("局数", "Hands", fmtInt(p.hands), "stat-hands"),
        stat("胜率", "Win rate", pct(p.win_rate), "stat-win-rate"),
        stat("放炮率", "Deal-in rate", pct(p.deal_in_rate), "stat-deal-in"),
        stat("和牌平均番", "Avg fan on wins", (p.avg_fan_on_win || 0).toFixed(1), "stat-avg-fan"),
        p.balance !== undefined ? stat("游戏币", "Coins", fmtInt(p.balance), "stat-balance") : null,
        p.coins_won !== undefined ? stat("输赢", "Coins won", signed(p.coins_won), "stat-coins-won") : null,
        stat("和牌", "Wins", fmtInt(p.wins), "stat-wins"),
        stat("逃跑", "Escapes", fmtInt(p.escapes || 0), "stat-escapes"),
        stat("总分", "Score", signed(p.score), "stat-score")),
      ratingSection(p.id),
      hands === null ? null : h("h2.section-title", L("player.recent_hands")),
      hands === null ? h("p.small#private-note", "游戏币和牌局记录只有本人可见 · Coins and hand history are private")
      : hands.length
        ? h("div.hands-wrap", h("table.hands#recent-hands",
          h("thead", h("tr", h("th", "局 Hand"), h("th", "时间 When"), h("th", "房间 Room"), h("th", "座位 Seat"),
            h("th.num", "分数 Score"), h("th.num", "游戏币 Coins"), h("th", "结果 Result"), h("th", ""))),
          h("tbody", hands.map((x) => h("tr", { dataset: { hand: x.hand } },
            h("td", `#${x.hand}`),
            h("td", dateText(x.at)),
            h("td", x.room),
            h("td.seat-wind", { dataset: { wind: x.wind || "" } }, x.wind ? bi(WIND_ZH[x.wind], WIND_EN[x.wind]) : `#${x.seat}`),
            h(`td.num.${x.score > 0 ? "pos" : x.score < 0 ? "neg" : "zero"}`, signed(x.score)),
            h(`td.num.${x.coins > 0 ? "pos" : x.coins < 0 ? "neg" : "zero"}`, signed(x.coins)),
            h("td", x.won ? `和 won · ${x.fan} 番` : "—"),
            h("td", h("a.btn.small.replay-link", { href: `#replay/${x.hand}` }, L("table.replay")),
              mine ? [" ", h("a.btn.small.review-link", { href: `#replay/${x.hand}/review` }, L("table.review"))] : null))))))
        : h("p.empty", "还没有牌局 · No hands yet"),
      mine ? statementSection() : null].filter(Boolean));
  }

  load();
  return null;
}
