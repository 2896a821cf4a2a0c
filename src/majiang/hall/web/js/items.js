// Items (道具, docs/items.md): names and texts shared by the lobby's shop, the table's item bar and
// the replay log, and the shop panel itself.  What may be used when is always the server's word
// (`usable` in `items` / `prompt` / `table`); nothing here decides it.

import { api } from "./api.js";
import { L, bi, clear, fmtInt, h, toast } from "./util.js";
import { msg, pair, t as pick, tr } from "./i18n.js";
import { tileEl, tileEn, tileName, tileZh } from "./tiles.js";

/** Every item's [zh, en] name (the catalogue's item.name.<id>; the shop list sends them too). */
export const ITEM_NAMES = Object.fromEntries(["qiankun", "toutian", "yihua", "qianliyan", "shunfenger", "jinshouzhi"]
  .map((id) => [id, pair(`item.name.${id}`)]));

/** The items whose moment is one's turn: their place in `usable` lasts as long as the prompt that listed them. */
export const TURN_ITEMS = new Set(["toutian", "yihua", "qianliyan", "shunfenger"]);

/** 乾坤大挪移's patterns' [zh, en] names (item.pattern.<id>). */
export const PATTERN_NAMES = Object.fromEntries(["big_four_winds", "big_three_dragons", "thirteen_orphans", "full_flush"]
  .map((p) => [p, pair(`item.pattern.${p}`)]));

const ERRORS = new Set(["items_off", "not_owned", "item_moment", "item_refused", "bad_item", "funds"]);

/** An item's name as {zh, en} (a value for msg()/tr()). */
export function itemNames(id) {
  const [zh, en] = ITEM_NAMES[id] || [id, id];
  return { zh, en };
}

/** A tile's name as {zh, en} (a value for msg()/tr()). */
function tileBoth(t) {
  return { zh: tileZh(t), en: tileEn(t) };
}

export function itemZh(id) {
  return (ITEM_NAMES[id] || [id])[0];
}

/** An item's name in the chosen language (both: "中文 English"). */
export function itemLabel(id) {
  const [zh, en] = ITEM_NAMES[id] || [id, id];
  return pick(zh, en).replace(" · ", " ");
}

function patternNames(p) {
  if (!p) return msg("item.random");
  const [zh, en] = PATTERN_NAMES[p] || [p, p];
  return { zh, en };
}

/** An item error (`error` with an item code) in words; null for other errors. */
export function itemErrorText(m) {
  if (!ERRORS.has(m.code)) return null;
  const error = msg(`item.error.${m.code}`);
  const text = m.item ? tr("item.error.with_item", { item: itemNames(m.item), error }) : tr(`item.error.${m.code}`);
  return `${text}${m.message ? ` — ${m.message}` : ""}`;
}

/** What an item use did, in words: `r` is `item_used.result` (or a whole `item` event). */
export function resultText(item, r = {}) {
  const v = { item: itemNames(item), tile: r.tile ? tileBoth(r.tile) : "", give: r.give ? tileBoth(r.give) : "",
    a: r.near ? r.near[0] : "", b: r.near ? r.near[1] : "", pattern: patternNames(r.pattern) };
  switch (item) {
    case "shunfenger": case "yihua": case "qiankun": case "jinshouzhi": return tr(`item.result.${item}`, v);
    case "qianliyan": case "toutian": return tr(`item.result.${item}${r.found ? "" : "_none"}`, v);
    default: return itemLabel(item);
  }
}

/** The public line for any seat's use: "<who> 使用了 偷天换日 · <who> used Steal the Sky". */
export function usedText(who, item) {
  return tr("item.used", { who, item: itemNames(item) });
}

/** An `item` event (or a 乾坤大挪移 entry of `hand_start`) in the replay log: who, which, what it did. */
export function replayText(e, who) {
  const v = { tile: e.tile ? tileBoth(e.tile) : "", give: e.give ? tileBoth(e.give) : "", a: e.near ? e.near[0] : "",
    b: e.near ? e.near[1] : "" };
  let detail = "";
  if (e.item === "qiankun" && e.pattern) detail = tr("item.pattern", { pattern: patternNames(e.pattern) });
  else if (e.item === "toutian" && e.tile) detail = tr(e.found ? "item.replay.exchange" : "item.replay.toutian_none", v);
  else if (e.item === "yihua" && e.tile) detail = tr("item.replay.exchange", v);
  else if (e.item === "qianliyan" && e.tile) detail = tr(`item.replay.qianliyan${e.found ? "" : "_none"}`, v);
  else if (e.item === "shunfenger" && e.tile) detail = tr("item.replay.shunfenger", v);
  return tr("item.used", { who, item: itemNames(e.item) }) + (detail ? ` — ${detail}` : "");
}

let shopPromise = null;
/** The shop list from /api/shop (fetched once per page). */
export function loadShop() {
  if (!shopPromise) shopPromise = api("/api/shop", { auth: false }).catch((e) => { shopPromise = null; throw e; });
  return shopPromise;
}

/** The lobby's shop card: every item with its names, price, effect and how many you own; buy with coins. */
export function shopCard(app) {
  const conn = app.conn;
  const card = h("div.card.shop#shop", h("h3", L("shop.title"), h("span.small", L("shop.items"))));
  const list = h("div.shop-list");
  const err = h("p.form-error#shop-error", { hidden: true });
  card.append(list, err);
  let shop = [];
  let inventory = {};

  function render() {
    clear(list);
    if (!shop.length) list.append(h("p.empty", L("loading")));
    for (const it of shop) {
      const count = h("input.count", { type: "number", min: "1", max: "99", value: "1", title: tr("shop.count") });
      const buy = () => {
        const n = Math.max(1, Math.min(99, parseInt(count.value, 10) || 1));
        err.hidden = true;
        confirmPurchase(null, it, n, app.me ? app.me.balance : null, () =>
          conn.send({ type: "buy", item: it.item, count: n, id: `w-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` }));
      };
      list.append(h("div.shop-item", { dataset: { item: it.item } },
        h("div.shop-head",
          h("span.shop-name", h("b", h("span.zh", it.zh)), " ", h("span.en", it.en)),
          h("span.price", { title: tr("shop.price_title") }, h("span.coin-icon", { dataset: { langFree: "" } }, "币"), fmtInt(it.price))),
        h("div.small.effect", bi(it.effect_zh || it.effect, it.effect)),
        h("div.row",
          h("span.owned", { dataset: { count: inventory[it.item] || 0 } }, L("shop.owned"), ` ×${inventory[it.item] || 0}`),
          count,
          h("button.btn.small.primary.buy", { on: { click: buy } }, L("shop.buy")))));
    }
  }

  const offs = [
    conn.on("bought", (m) => {
      inventory = m.inventory || inventory;
      render();
      if (app.me) {
        app.me.balance = m.balance;
        conn.emit("_me", app.me);
      }
      app.refreshMe();
      toast(m.repeated ? tr("shop.repeated") :
        tr("shop.bought", { item: itemNames(m.item), n: m.count, cost: fmtInt(m.cost) }), "ok");
    }),
    conn.on("error", (m) => {
      const text = ["funds", "bad_item", "items_off"].includes(m.code) ? itemErrorText(m) : null;
      if (!text) return;
      err.textContent = text;
      err.dataset.code = m.code;
      err.hidden = false;
    }),
  ];
  render();
  loadShop().then((s) => { shop = s; render(); }).catch((e) => { err.textContent = e.message; err.hidden = false; });
  api("/api/inventory").then((d) => { inventory = d.inventory; render(); }).catch(() => {});
  return { el: card, off: () => offs.forEach((off) => off()) };
}

/** The confirmation before a purchase (#buy-confirm): the item, the count, the price and the balance
 * after it; `ok` runs on 确定 only.  Too few coins is still the server's word (the button stays). */
export function confirmPurchase(parent, it, n, balance, ok) {
  for (const old of document.querySelectorAll("#buy-confirm")) old.remove();
  const cost = it.price * n;
  const after = balance === null || balance === undefined ? null : balance - cost;
  const close = () => { box.remove(); document.removeEventListener("keydown", onKey); };
  const onKey = (e) => { if (e.key === "Escape") close(); };
  const box = h("div.confirm-overlay#buy-confirm", { role: "dialog", "aria-modal": "true", "aria-labelledby": "buy-confirm-title",
    dataset: { item: it.item, count: n, cost, after: after === null ? "" : after } },
  h("div.confirm-box",
    h("h3#buy-confirm-title", L("shop.confirm")),
    h("p.confirm-item#buy-confirm-item", h("span.zh", it.zh), " ", h("span.en", it.en), ` ×${n}`),
    h("p.confirm-price#buy-confirm-price", L("shop.price_line", { price: fmtInt(it.price), n, cost: fmtInt(cost) })),
    after === null ? null : h(`p.confirm-after${after < 0 ? ".neg" : ""}#buy-confirm-after`,
      L("shop.after", { after: fmtInt(after) }), after < 0 ? [" — ", L("shop.not_enough")] : null),
    h("div.row",
      h("button.btn.small#buy-confirm-cancel", { on: { click: close } }, L("shop.cancel")),
      h("button.btn.small.primary#buy-confirm-ok", { on: { click: () => { close(); ok(); } } }, L("shop.ok")))));
  document.addEventListener("keydown", onKey);
  (parent || document.body).append(box);
  box.querySelector("#buy-confirm-ok").focus();
  return box;
}

/** Tile picker buttons: `tiles` to choose from, `on` the chosen one; `pick(t)` on a click. */
export function tileChoices(cls, tiles, on, pick) {
  return h(`div.pick-row.${cls}`, tiles.map((t) => h(`button.pick${t === on ? ".on" : ""}`, {
    dataset: { tile: t }, title: tileName(t), on: { click: () => pick(t) },
  }, tileEl(t, { size: "xs" }))));
}
