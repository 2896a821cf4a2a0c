// The auto toggles at the table: 自动和 (auto-win), 不吃碰杠 (auto-pass claims), 摸切 (auto-discard the
// drawn tile).  The server acts on them the moment a prompt would come (hall/settings.py) and remembers
// them per account: the welcome brings them, {"type": "settings", <name>: true|false} changes them, the
// server's "settings" answer is what the buttons show, and "preset" says what a toggle just did.

import { bi, h, L } from "./util.js";
import { tileEn, tileZh } from "./tiles.js";

export const TOGGLES = [
  ["auto_win", "自动和", "Auto-win",
    "有合法的和（够起和番）就自动和 · win at once whenever a legal win (enough fan) is offered"],
  ["auto_pass", "不吃碰杠", "Auto-pass claims",
    "别人打牌时自动放弃吃碰杠；能和时照常询问 · pass chow, pung and kong at once; a win is still asked"],
  ["auto_discard", "摸切", "Auto-discard drawn",
    "自动打出摸到的牌；能和或能杠时照常询问 · discard the drawn tile at once; a win or a kong is still asked"],
];

const DONE = { auto_win: ["自动和了", "auto-won"], auto_pass: ["自动过", "auto-passed"],
  auto_discard: ["摸切", "auto-discarded"] };

export const toggles = {
  settings: { auto_win: false, auto_pass: false, auto_discard: false },
  last: null, // the latest preset: {toggle, action}
};

/** Follow the server: its welcome, its answers and what the toggles did; ``redraw`` after each. */
export function attachToggles(conn, redraw) {
  const take = (s) => {
    if (!s) return;
    for (const [name] of TOGGLES) toggles.settings[name] = s[name] === true;
    // what a toggle did is news only while it is on: switched off, its note goes
    if (toggles.last && !toggles.settings[toggles.last.toggle]) toggles.last = null;
    redraw();
  };
  conn.on("welcome", (m) => take(m.settings));
  conn.on("settings", (m) => take(m.settings));
  conn.on("preset", (m) => {
    toggles.last = { toggle: m.toggle, action: m.action };
    redraw();
  });
}

/** The card of the three switches (the server's state; a tap asks it to flip one). */
export function togglesCard(send) {
  const card = h("div.card.toggles-card#toggles", h("h3", L("toggles.auto")));
  const row = h("div.toggles");
  for (const [name, zh, en, title] of TOGGLES) {
    const on = toggles.settings[name];
    row.append(h(`button.btn.toggle.auto-switch${on ? ".on" : ""}#toggle-${name.replace("_", "-")}`, {
      dataset: { toggle: name },
      "aria-pressed": on ? "true" : "false",
      title,
      on: { click: () => send({ type: "settings", [name]: !toggles.settings[name] }) },
    }, h("span.mark", on ? "✓" : ""), bi(zh, en)));
  }
  card.append(row);
  const last = toggles.last;
  if (last) {
    const [zh, en] = DONE[last.toggle] || [last.toggle, last.toggle];
    const t = last.action && last.action.tile;
    card.append(h("div.small#toggle-last", { dataset: { toggle: last.toggle } },
      bi(t ? `${zh} ${tileZh(t)}` : zh, t ? `${en} ${tileEn(t)}` : en)));
  }
  return card;
}
