// The rulesets the server plays, as GET /api/rulesets describes them: display names, the tile count
// and dead wall, what a win's points count, and which calculator form (calc-<form>.js) builds a hand.
// Loaded once at boot (main.js), so the pages ask by name and never test for one.

import { api } from "./api.js";

let list = [];
let byName = {};
let loading = null;

/** Fetch the descriptors (once; later calls share the first request). */
export function loadRulesets() {
  if (!loading) {
    loading = api("/api/rulesets", { auth: false }).then((rs) => {
      list = rs;
      byName = Object.fromEntries(rs.map((r) => [r.name, r]));
      return rs;
    }).catch((e) => {
      loading = null; // try again on the next call
      throw e;
    });
  }
  return loading;
}

/** Every ruleset, in the server's order. */
export function rulesets() {
  return list;
}

/** The descriptor of `name`, or null (unknown, or not loaded yet). */
export function rulesetInfo(name) {
  return byName[name] || null;
}

/** The name of the server's default ruleset (hand-json's, a room's that names none), or null before
 * the descriptors are loaded. */
export function defaultRuleset() {
  const r = list.find((x) => x.default) || list[0];
  return r ? r.name : null;
}

/** The fans a win needs (起和) in `name`, or null: not scored in fans (or not described). */
export function minFan(name) {
  const r = rulesetInfo(name);
  return r && typeof r.min_fan === "number" ? r.min_fan : null;
}

/** [zh, en] display names; the bare name when the server did not describe it. */
export function rulesetName(name) {
  const r = rulesetInfo(name);
  return r ? [r.zh, r.en] : [name, name];
}

/** What a win's points count in `name` as [zh, en], e.g. ["番", "fan"]. */
export function pointsPair(name) {
  const r = rulesetInfo(name);
  return r ? [r.points[0], r.points[r.points.length - 1]] : ["", ""];
}

/** What a win's points count in `name`, e.g. "番 fan" or "倍 multiplier". */
export function pointsName(name) {
  const r = rulesetInfo(name);
  return r ? r.points.join(" ") : "";
}
