// The coin statement (账单) on your own player page: every ledger entry of your account, newest first,
// with the balance after it and a link to its hand (GET /api/me/statement, paginated by `before`).

import { api } from "./api.js";
import { bi, clear, dateText, fmtInt, h, L, signed } from "./util.js";
import { itemNames } from "./items.js";
import { pair } from "./i18n.js";

const KINDS = new Set(["settle", "fee", "purchase", "escape", "compensation", "signup", "guest", "grant", "relief",
  "refill", "bot"]);

/** A ledger entry's kind in words (a label; a purchase names its item). */
export function kindText(e) {
  const [zh, en] = KINDS.has(e.kind) ? pair(`statement.kind.${e.kind}`) : [e.kind, e.kind];
  const n = e.count ? ` ×${e.count}` : "";
  const item = e.kind === "purchase" && e.item ? itemNames(e.item) : null;
  return bi(item ? `${zh} ${item.zh}${n}` : zh, item ? `${en} ${item.en}${n}` : en);
}

/** The statement section: a table that grows by pages ("更早 Older"). */
export function statementSection() {
  const body = h("tbody");
  const more = h("button.btn.small#statement-more", { hidden: true }, L("statement.older"));
  const err = h("p.form-error", { hidden: true });
  const section = h("section.statement#statement",
    h("h2.section-title", L("statement.coin_statement")),
    h("table.hands.statement-table#statement-table",
      h("thead", h("tr", h("th", L("player.when")), h("th", L("statement.what")), h("th", L("statement.hand")),
        h("th.num", L("statement.amount")), h("th.num", L("statement.balance")))),
      body),
    more, err);
  let before = null;
  async function load() {
    try {
      const d = await api(`/api/me/statement?limit=50${before ? `&before=${before}` : ""}`);
      for (const e of d.entries) {
        body.append(h("tr.entry", { dataset: { id: e.id, kind: e.kind, amount: e.amount, balance: e.balance } },
          h("td", dateText(e.at)),
          h("td.kind", kindText(e)),
          h("td", e.hand ? h("a.hand-link", { href: `#replay/${e.hand}` }, `#${e.hand}`) : "—"),
          h(`td.num.amount.${e.amount > 0 ? "pos" : e.amount < 0 ? "neg" : "zero"}`, signed(e.amount)),
          h("td.num.balance", fmtInt(e.balance))));
      }
      if (!body.children.length) body.append(h("tr", h("td", { colSpan: 5 }, L("statement.no_entries_yet"))));
      before = d.next_before;
      more.hidden = !before;
    } catch (e) {
      clear(err).append(L("statement.cannot_load", { error: e.message }));
      err.hidden = false;
    }
  }
  more.addEventListener("click", load);
  load();
  return section;
}
