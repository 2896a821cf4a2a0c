// 救济金, the daily relief grant (docs/ratings.md, Relief): a lobby card with a claim button, shown only
// while GET /api/me/relief says you may claim (your balance is below the cheapest room's minimum and
// today's claims are not used up).  POST /api/me/relief pays it through the ledger.

import { api } from "./api.js";
import { bi, fmtInt, h, toast } from "./util.js";

export function reliefCard(app) {
  const text = h("p.small#relief-text");
  const button = h("button.btn.primary#relief-claim", bi("领取救济金", "Claim relief"));
  const el = h("div.card.relief#relief-card", { hidden: true },
    h("h3", bi("救济金", "Relief"), h("span.small", "每日 daily")), text, button);
  let busy = false;

  async function refresh() {
    if (!app.me) {
      el.hidden = true;
      return;
    }
    try {
      const st = await api("/api/me/relief");
      el.hidden = !st.eligible;
      el.dataset.left = st.left_today;
      text.textContent = `游戏币低于 ${fmtInt(st.below)} 时每天可领 ${st.per_day} 次，每次 ${fmtInt(st.amount)} · ` +
        `below ${fmtInt(st.below)} coins you may claim ${fmtInt(st.amount)}, ${st.per_day}× a day (${st.left_today} left today)`;
    } catch {
      el.hidden = true;
    }
  }

  button.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    button.disabled = true;
    try {
      const got = await api("/api/me/relief", { method: "POST" });
      toast(`已领取救济金 ${fmtInt(got.paid)} 游戏币 · relief of ${fmtInt(got.paid)} coins received`, "ok");
    } catch (e) {
      toast(`不能领取 · Cannot claim: ${e.message}`, "error");
    } finally {
      busy = false;
      button.disabled = false;
      await app.refreshMe();  // the balance moves; "_me" refreshes the card
    }
  });

  const off = app.conn.on("_me", refresh);
  refresh();
  return { el, off };
}
