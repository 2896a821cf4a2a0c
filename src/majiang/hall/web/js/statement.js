// The coin statement (账单) on your own player page: every ledger entry of your account, newest first,
// with the balance after it and a link to its hand (GET /api/me/statement, paginated by `before`).

import { api } from "./api.js";
import { bi, clear, dateText, fmtInt, h, L, signed } from "./util.js";
import { itemZh } from "./items.js";

const KINDS = {
  settle: ["牌局结算", "Hand"], fee: ["台费", "Fee"], purchase: ["购买道具", "Purchase"], escape: ["逃跑罚金", "Escape penalty"],
  compensation: ["逃跑补偿", "Escape compensation"], signup: ["注册赠送", "Sign-up grant"], guest: ["游客赠送", "Guest grant"],
  grant: ["赠送", "Grant"], relief: ["救济金", "Relief grant"], refill: ["补充", "Refill"], bot: ["机器人初始", "Bot float"],
};

export function kindText(e) {
  const [zh, en] = KINDS[e.kind] || [e.kind, e.kind];
  const what = e.kind === "purchase" && e.item ? ` ${itemZh(e.item)}${e.count ? ` ×${e.count}` : ""}` : "";
  return `${zh}${what} · ${en}`;
}

/** The statement section: a table that grows by pages ("更早 Older"). */
export function statementSection() {
  const body = h("tbody");
  const more = h("button.btn.small#statement-more", { hidden: true }, L("statement.older"));
  const err = h("p.form-error", { hidden: true });
  const section = h("section.statement#statement",
    h("h2.section-title", L("statement.coin_statement")),
    h("table.hands.statement-table#statement-table",
      h("thead", h("tr", h("th", "时间 When"), h("th", "项目 What"), h("th", "牌局 Hand"),
        h("th.num", "金额 Amount"), h("th.num", "余额 Balance"))),
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
      if (!body.children.length) body.append(h("tr", h("td", { colSpan: 5 }, "还没有记录 · No entries yet")));
      before = d.next_before;
      more.hidden = !before;
    } catch (e) {
      clear(err).append(`无法载入账单 · Cannot load the statement: ${e.message}`);
      err.hidden = false;
    }
  }
  more.addEventListener("click", load);
  load();
  return section;
}
