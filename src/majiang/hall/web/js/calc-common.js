// What the calculator's forms (calc-mcr.js, calc-nanchang.js) and its page (calc.js) share.

/** The modes every form has: where a clicked tile goes. */
export const MODES = [
  ["hand", "手牌", "Concealed"],
  ["chow", "吃", "Chow"],
  ["pung", "碰", "Pung"],
  ["kong", "明杠", "Kong"],
  ["ckong", "暗杠", "Concealed kong"],
  ["win", "和张", "Winning tile"],
];

/** Concealed tiles a hand with these melds holds (without the winning tile unless `withWin`). */
export function needConcealed(tgt, withWin) {
  return 13 - 3 * tgt.melds.length + (withWin ? 1 : 0);
}

/** A meld as hand-json (shared/spec/hand-json.md) writes it. */
export function meldJson(m) {
  const d = { kind: m.kind, tiles: m.tiles.slice(), concealed: !!m.concealed };
  if (m.kind === "chow") d.claimed = m.claimed ?? 0;
  else if (!m.concealed) d.from = m.from || 1;
  return d;
}
