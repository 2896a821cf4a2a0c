// 救济金, the daily relief grant (docs/ratings.md, Relief): a lobby card with a claim button, shown only
// while GET /api/me/relief says you may claim (your balance is below the cheapest room's minimum and
// today's claims are not used up).  POST /api/me/relief pays it through the ledger.

import { api } from "./api.js";
import { L, fmtInt, h, toast } from "./util.js";
import { tr } from "./i18n.js";

export function reliefCard(app) {
  const text = h("p.small#relief-text");
  const button = h("button.btn.primary#relief-claim", L("relief.claim"));
  const el = h("div.card.relief#relief-card", { hidden: true },
    h("h3", L("relief.title"), h("span.small", L("relief.daily"))), text, button);
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
      text.replaceChildren(L("relief.text", { below: fmtInt(st.below), per_day: st.per_day, amount: fmtInt(st.amount),
        left: st.left_today }));
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
      toast(tr("relief.got", { paid: fmtInt(got.paid) }), "ok");
    } catch (e) {
      toast(tr("relief.cannot", { error: e.message }), "error");
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
