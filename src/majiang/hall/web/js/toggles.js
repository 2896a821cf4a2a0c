// The auto toggles at the table: 自动和 (auto-win), 不吃碰杠 (auto-pass claims), 摸切 (auto-discard the
// drawn tile).  The server acts on them the moment a prompt would come (hall/settings.py) and remembers
// them per account: the welcome brings them, {"type": "settings", <name>: true|false} changes them, the
// server's "settings" answer is what the buttons show, and "preset" says what a toggle just did.

import { bi, h, L } from "./util.js";
import { tileEn, tileZh } from "./tiles.js";
import { pair } from "./i18n.js";

/** The switches by name: their labels and titles are the catalogue's toggles.<name>, toggles.<name>_title. */
export const TOGGLES = [["auto_win"], ["auto_pass"], ["auto_discard"]];

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
  for (const [name] of TOGGLES) {
    const on = toggles.settings[name];
    row.append(h(`button.btn.toggle.auto-switch${on ? ".on" : ""}#toggle-${name.replace("_", "-")}`, {
      dataset: { toggle: name },
      "aria-pressed": on ? "true" : "false",
      i18n: { title: `toggles.${name}_title` },
      on: { click: () => send({ type: "settings", [name]: !toggles.settings[name] }) },
    }, h("span.mark", on ? "✓" : ""), L(`toggles.${name}`)));
  }
  card.append(row);
  const last = toggles.last;
  if (last) {
    const [zh, en] = TOGGLES.some(([x]) => x === last.toggle) ? pair(`toggles.done.${last.toggle}`) : [last.toggle, last.toggle];
    const t = last.action && last.action.tile;
    card.append(h("div.small#toggle-last", { dataset: { toggle: last.toggle } },
      bi(t ? `${zh} ${tileZh(t)}` : zh, t ? `${en} ${tileEn(t)}` : en)));
  }
  return card;
}
