// Items (道具, docs/items.md): names and texts shared by the lobby's shop, the table's item bar and
// the replay log, and the shop panel itself.  What may be used when is always the server's word
// (`usable` in `items` / `prompt` / `table`); nothing here decides it.

import { api } from "./api.js";
import { bi, clear, fmtInt, h, toast } from "./util.js";
import { tileEl, tileName, tileZh } from "./tiles.js";

export const ITEM_NAMES = {
  qiankun: ["乾坤大挪移", "Great Shift"], toutian: ["偷天换日", "Steal the Sky"], yihua: ["移花接木", "Graft"],
  qianliyan: ["千里眼", "Far Sight"], shunfenger: ["顺风耳", "Keen Ears"], jinshouzhi: ["金手指", "Golden Finger"],
};

/** The items whose moment is one's turn: their place in `usable` lasts as long as the prompt that listed them. */
export const TURN_ITEMS = new Set(["toutian", "yihua", "qianliyan", "shunfenger"]);

export const PATTERN_NAMES = {
  big_four_winds: ["大四喜", "Big four winds"], big_three_dragons: ["大三元", "Big three dragons"],
  thirteen_orphans: ["十三幺", "Thirteen orphans"], full_flush: ["清一色", "Full flush"],
};

const ERRORS = {
  items_off: ["这里不能使用道具", "Items are off at this table"],
  not_owned: ["你没有这个道具了，请到商店购买", "You have none left: buy one in the shop"],
  item_moment: ["现在不能使用这个道具", "Not the moment for this item"],
  item_refused: ["道具使用被拒绝", "The item was refused"],
  bad_item: ["没有这个道具", "Unknown item or count"],
  funds: ["游戏币不足", "Not enough coins"],
};

export function itemZh(id) {
  return (ITEM_NAMES[id] || [id])[0];
}

export function itemLabel(id) {
  const [zh, en] = ITEM_NAMES[id] || [id, ""];
  return en ? `${zh} ${en}` : zh;
}

function patternLabel(p) {
  const [zh, en] = PATTERN_NAMES[p] || [p, ""];
  return p ? `${zh} ${en}` : "随机 random";
}

/** An item error (`error` with an item code) in words; null for other errors. */
export function itemErrorText(m) {
  const e = ERRORS[m.code];
  if (!e) return null;
  const what = m.item ? `${itemZh(m.item)}：` : "";
  return `${what}${e[0]} · ${e[1]}${m.message ? ` — ${m.message}` : ""}`;
}

/** What an item use did, in words: `r` is `item_used.result` (or a whole `item` event). */
export function resultText(item, r = {}) {
  const name = itemLabel(item);
  switch (item) {
    case "shunfenger": return `${name}：下一张牌是 ${tileZh(r.tile)} · the next tile of the wall is ${tileName(r.tile)}`;
    case "qianliyan":
      return r.found
        ? `${name}：最近的 ${tileZh(r.tile)} 在第 ${r.near[0]}–${r.near[1]} 张 · the nearest ${tileName(r.tile)} is among the next draws ${r.near[0]}–${r.near[1]}`
        : `${name}：牌墙里没有 ${tileZh(r.tile)} · no ${tileName(r.tile)} is left in the live wall`;
    case "toutian":
      return r.found
        ? `${name}：${tileZh(r.give)} → ${tileZh(r.tile)} · you gave ${tileName(r.give)} and took ${tileName(r.tile)}`
        : `${name}：牌墙里没有 ${tileZh(r.tile)}，手牌不变，道具已用 · no ${tileName(r.tile)} in the live wall; the item is spent`;
    case "yihua": return `${name}：${tileZh(r.give)} → ${tileZh(r.tile)} · you gave ${tileName(r.give)} and got ${tileName(r.tile)}`;
    case "qiankun": return `${name}：下一局发牌接近 ${patternLabel(r.pattern)} · your next deal will be close to it`;
    case "jinshouzhi": return `${name}：你的出牌标记变成金手指 · your discard marker is a golden finger at this table`;
    default: return name;
  }
}

/** The public line for any seat's use: "<who> 使用了 偷天换日 · <who> used Steal the Sky". */
export function usedText(who, item) {
  const [zh, en] = ITEM_NAMES[item] || [item, item];
  return `${who} 使用了 ${zh} · ${who} used ${en}`;
}

/** An `item` event (or a 乾坤大挪移 entry of `hand_start`) in the replay log: who, which, what it did. */
export function replayText(e, who) {
  const t = tileZh;
  let detail = "";
  if (e.item === "qiankun" && e.pattern) detail = patternLabel(e.pattern);
  else if (e.item === "toutian" && e.tile) detail = e.found ? `${t(e.give)} → ${t(e.tile)}` : `要 ${t(e.tile)}：牌墙里没有 none left`;
  else if (e.item === "yihua" && e.tile) detail = `${t(e.give)} → ${t(e.tile)}`;
  else if (e.item === "qianliyan" && e.tile) {
    detail = e.found ? `找 ${t(e.tile)}：第 ${e.near[0]}–${e.near[1]} 张 draws ${e.near[0]}–${e.near[1]}` : `找 ${t(e.tile)}：没有 none left`;
  } else if (e.item === "shunfenger" && e.tile) detail = `下一张 next tile ${t(e.tile)}`;
  return `${who} 使用了 ${itemLabel(e.item)}` + (detail ? ` — ${detail}` : "");
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
  const card = h("div.card.shop#shop", h("h3", bi("商店", "Shop"), h("span.small", "道具 items")));
  const list = h("div.shop-list");
  const err = h("p.form-error#shop-error", { hidden: true });
  card.append(list, err);
  let shop = [];
  let inventory = {};

  function render() {
    clear(list);
    if (!shop.length) list.append(h("p.empty", "载入中… loading…"));
    for (const it of shop) {
      const count = h("input.count", { type: "number", min: "1", max: "99", value: "1", title: "数量 count" });
      const buy = () => {
        const n = Math.max(1, Math.min(99, parseInt(count.value, 10) || 1));
        err.hidden = true;
        confirmPurchase(null, it, n, app.me ? app.me.balance : null, () =>
          conn.send({ type: "buy", item: it.item, count: n, id: `w-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` }));
      };
      list.append(h("div.shop-item", { dataset: { item: it.item } },
        h("div.shop-head",
          h("span.shop-name", h("b", it.zh), " ", h("span.en", it.en)),
          h("span.price", { title: "价格 price (coins)" }, h("span.coin-icon", "币"), fmtInt(it.price))),
        h("div.small.effect", it.effect),
        h("div.row",
          h("span.owned", { dataset: { count: inventory[it.item] || 0 } }, `拥有 owned ×${inventory[it.item] || 0}`),
          count,
          h("button.btn.small.primary.buy", { on: { click: buy } }, bi("购买", "Buy")))));
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
      toast(m.repeated ? "这次购买已完成过 · already bought" :
        `已购买 ${itemZh(m.item)} ×${m.count}，花费 ${fmtInt(m.cost)} 游戏币 · bought for ${fmtInt(m.cost)} coins`, "ok");
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
    h("h3#buy-confirm-title", bi("确认购买", "Confirm purchase")),
    h("p.confirm-item#buy-confirm-item", `${it.zh} ${it.en} ×${n}`),
    h("p.confirm-price#buy-confirm-price", `价格 Price: ${fmtInt(it.price)} × ${n} = ${fmtInt(cost)} 游戏币 coins`),
    after === null ? null : h(`p.confirm-after${after < 0 ? ".neg" : ""}#buy-confirm-after`,
      `购买后余额 Balance after: ${fmtInt(after)}${after < 0 ? " — 游戏币不足 · not enough coins" : ""}`),
    h("div.row",
      h("button.btn.small#buy-confirm-cancel", { on: { click: close } }, bi("取消", "Cancel")),
      h("button.btn.small.primary#buy-confirm-ok", { on: { click: () => { close(); ok(); } } }, bi("确定购买", "Buy")))));
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
