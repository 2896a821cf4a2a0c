// What the calculator's forms (calc-mcr.js, calc-nanchang.js) and its page (calc.js) share.

import { pair } from "./i18n.js";

/** A mode as [value, zh, en] (the catalogue's calc.modebtn.<value>). */
export const mode = (v) => [v, ...pair(`calc.modebtn.${v}`)];

/** The modes every form has: where a clicked tile goes. */
export const MODES = ["hand", "chow", "pung", "kong", "ckong", "win"].map(mode);

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
