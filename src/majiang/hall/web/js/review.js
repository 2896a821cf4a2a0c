// The review panel of the replay viewer: GET /api/hands/<id>/review?seat=N (your own seat of a
// finished hand, docs/review.md) — per-decision markers (agree / differ with the estimated loss),
// the bot's choice, the biggest mistakes.  Clicking a decision shows the table as the player saw it.

import { api } from "./api.js";
import { bi, clear, h, L, WIND_EN, WIND_ZH } from "./util.js";
import { tileEn, tileZh } from "./tiles.js";
import { msg, t, tr } from "./i18n.js";

const VERBS = new Set(["discard", "chow", "pung", "kong", "added_kong", "concealed_kong", "win", "pass"]);

/** An action in words as {zh, en} (a catalogue value): the verb and its tiles. */
export function actionText(a) {
  const verb = VERBS.has(a.type) ? msg(`review.verb.${a.type}`) : { zh: a.type, en: a.type };
  const ts = a.tiles || (a.tile ? [a.tile] : []);
  const zh = ts.map(tileZh).join("");
  const en = ts.map(tileEn).join(", ");
  return { zh: `${verb.zh}${zh ? " " + zh : ""}`, en: `${verb.en}${en ? " " + en : ""}` };
}

/** One decision in words, as {zh, en}. */
function decisionMsg(d) {
  if (d.auto) return msg("review.auto", { turn: d.turn, action: actionText(d.player) });
  const you = msg("review.you", { turn: d.turn, action: actionText(d.player) });
  if (d.agree) return { zh: `${you.zh} ✓`, en: `${you.en} ✓` };
  const bot = msg("review.bot", { action: actionText(d.bot) });
  const loss = d.loss > 0 ? msg("review.loss", { loss: d.loss.toFixed(2) }) : msg("review.no_loss");
  return { zh: `${you.zh} ${bot.zh} ${loss.zh}`, en: `${you.en} ${bot.en} ${loss.en}` };
}

function decisionText(d) {
  const m = decisionMsg(d);
  return t(m.zh, m.en);
}

/** The panel for the seats of ``mine`` (the viewer's own seats in this hand); ``jump(pos)`` moves the
 *  replay.  Returns {el, mark(pos), logMarks(logEl)}. */
export function reviewPanel(handId, mine, jump) {
  const el = h("div.card.review-card#review-card", h("h3", L("review.ai_review")));
  const body = h("div#review-body", h("p.small", L("review.reviewing")));
  el.append(body);
  let review = null;
  let logEl = null;

  function item(d, id) {
    return h(`li.${d.auto ? "auto" : d.agree ? "agree" : "differ"}`, {
      id, dataset: { event: d.event }, title: tr("review.event", { n: d.event }),
      on: { click: () => jump(d.event) },
    }, bi(decisionMsg(d).zh, decisionMsg(d).en));
  }

  function render(r) {
    review = r;
    clear(body);
    const s = r.summary;
    const byEvent = new Map(r.decisions.map((d) => [d.event, d]));
    body.append(
      h("div.small#review-summary", L("review.seat"), " ", L(`wind.${"ESWN"[r.seat]}`), " · ",
        L("review.reviewer"), " ", h("span", { dataset: { langFree: "" } }, r.reviewer), " · ", // the reviewing bot's name
        L("review.decisions"), ` ${s.decisions} · `, L("review.agreed"), ` ${s.agreed} (${Math.round(s.agreement * 100)}%) · `,
        L("review.loss_total"), ` ${s.loss.toFixed(2)}`),
      h("h4", L("review.biggest_mistakes")),
      r.mistakes.length
        ? h("ol.review-mistakes#review-mistakes", r.mistakes.map((e) => item(byEvent.get(e))))
        : h("p.small#review-mistakes", L("review.no_mistakes_found")),
      h("h4", L("review.every_decision")),
      h("ol.review-list#review-list", r.decisions.map((d) => item(d))),
      h("p.small.muted", { title: r.method }, L("review.method_docs_review_md")),
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
        li.append(h("span.rv-mark", { title: decisionText(d) }, " ", L("auto")));
        continue;
      }
      li.classList.add(d.agree ? "rv-agree" : "rv-differ");
      li.append(h("span.rv-mark", { title: decisionText(d) }, d.agree ? " ✓" : [" ✗ ", bi(actionText(d.bot).zh, actionText(d.bot).en), ` −${d.loss.toFixed(2)}`]));
    }
  }

  /** Highlight the decision taken at replay position ``pos`` (the table as the player saw it). */
  function mark(pos) {
    for (const li of el.querySelectorAll("li[data-event]")) li.classList.toggle("on", Number(li.dataset.event) === pos);
  }

  if (!mine.length) {
    clear(body).append(h("p.small#review-none", L("review.a_review_is_for_your_own_seat_lo")));
  } else {
    api(`/api/hands/${handId}/review?seat=${mine[0]}`).then(render).catch((e) => {
      clear(body).append(h("p.form-error", L("review.cannot", { error: e.message })));
    });
  }
  return { el, mark, logMarks };
}
