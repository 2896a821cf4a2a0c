// The review panel of the replay viewer: GET /api/hands/<id>/review?seat=N (your own seat of a
// finished hand, docs/review.md) — per-decision markers (agree / differ with the estimated loss),
// the bot's choice, the biggest mistakes.  Clicking a decision shows the table as the player saw it.

import { api } from "./api.js";
import { bi, clear, h, L } from "./util.js";
import { tileZh } from "./tiles.js";

const VERB = {
  discard: "打", chow: "吃", pung: "碰", kong: "杠", added_kong: "加杠", concealed_kong: "暗杠", win: "和", pass: "过",
};

export function actionText(a) {
  const tiles = a.tiles ? a.tiles.map(tileZh).join("") : a.tile ? tileZh(a.tile) : "";
  return `${VERB[a.type] || a.type}${tiles ? " " + tiles : ""}`;
}

function decisionText(d) {
  if (d.auto) return `巡 ${d.turn} · 托管 auto-play ${actionText(d.player)} (不计入你的评审 not counted as yours)`;
  return `巡 ${d.turn} · 你 you ${actionText(d.player)}` +
    (d.agree ? " ✓" : ` · 机器人 bot ${actionText(d.bot)} · ` +
      (d.loss > 0 ? `损失 loss ${d.loss.toFixed(2)}` : "估计相当 no loss by the estimate"));
}

/** The panel for the seats of ``mine`` (the viewer's own seats in this hand); ``jump(pos)`` moves the
 *  replay.  Returns {el, mark(pos), logMarks(logEl)}. */
export function reviewPanel(handId, mine, jump) {
  const el = h("div.card.review-card#review-card", h("h3", L("review.ai_review")));
  const body = h("div#review-body", h("p.small", "评审中… reviewing…"));
  el.append(body);
  let review = null;
  let logEl = null;

  function item(d, id) {
    return h(`li.${d.auto ? "auto" : d.agree ? "agree" : "differ"}`, {
      id, dataset: { event: d.event }, title: `事件 event ${d.event}`,
      on: { click: () => jump(d.event) },
    }, decisionText(d));
  }

  function render(r) {
    review = r;
    clear(body);
    const s = r.summary;
    const byEvent = new Map(r.decisions.map((d) => [d.event, d]));
    body.append(
      h("div.small#review-summary", `座位 seat ${"东南西北"[r.seat]} · 评审 reviewer ${r.reviewer} · ` +
        `决策 decisions ${s.decisions} · 一致 agreed ${s.agreed} (${Math.round(s.agreement * 100)}%) · ` +
        `估计损失 estimated loss ${s.loss.toFixed(2)}`),
      h("h4", L("review.biggest_mistakes")),
      r.mistakes.length
        ? h("ol.review-mistakes#review-mistakes", r.mistakes.map((e) => item(byEvent.get(e))))
        : h("p.small#review-mistakes", "没有失误 · no mistakes found"),
      h("h4", L("review.every_decision")),
      h("ol.review-list#review-list", r.decisions.map((d) => item(d))),
      h("p.small.muted", { title: r.method }, "估计方法 method: docs/review.md"),
    );
    if (logEl) logMarks(logEl);
  }

  /** Markers on the events list of the replay: ✓ agree, ✗ differ with the loss. */
  function logMarks(log) {
    logEl = log;
    if (!review) return;
    for (const d of review.decisions) {
      const li = log.querySelector(`li[data-i="${d.event}"]`);
      if (!li || li.querySelector(".rv-mark")) continue;
      if (d.auto) { // 托管 decided this one, not the player
        li.classList.add("rv-auto");
        li.append(h("span.rv-mark", { title: decisionText(d) }, " 托管"));
        continue;
      }
      li.classList.add(d.agree ? "rv-agree" : "rv-differ");
      li.append(h("span.rv-mark", { title: decisionText(d) }, d.agree ? " ✓" : ` ✗ ${actionText(d.bot)} −${d.loss.toFixed(2)}`));
    }
  }

  /** Highlight the decision taken at replay position ``pos`` (the table as the player saw it). */
  function mark(pos) {
    for (const li of el.querySelectorAll("li[data-event]")) li.classList.toggle("on", Number(li.dataset.event) === pos);
  }

  if (!mine.length) {
    clear(body).append(h("p.small#review-none", "只能复盘你自己坐过的座位 · a review is for your own seat: log in as a player of this hand"));
  } else {
    api(`/api/hands/${handId}/review?seat=${mine[0]}`).then(render).catch((e) => {
      clear(body).append(h("p.form-error", `无法复盘 · Cannot review: ${e.message}`));
    });
  }
  return { el, mark, logMarks };
}
