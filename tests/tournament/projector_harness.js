// Runs projector.js under node with a stub DOM and a fixed standings JSON (argv[3]); prints what each
// page shows: [{head: [...], rows: [[...], ...], what}] for the first pages.  Used by test_tournament_web.
"use strict";
const fs = require("fs");
const data = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
class El {
  constructor(tag) { this.tag = tag; this.children = []; this.textContent = ""; this.className = ""; this.dataset = {}; this.options = []; this.hidden = false; this.value = ""; }
  append(...c) { this.children.push(...c); }
  replaceChildren(...c) { this.children = [...c]; }
  addEventListener() {}
  getBoundingClientRect() { return { top: 100 }; }
}
const els = {};
const byId = (id) => (els[id] = els[id] || new El("div"));
global.window = { innerHeight: 10000, location: { href: "http://x/" }, history: { replaceState() {} }, addEventListener() {} };
global.document = {
  body: { dataset: { event: "cup", every: "12" } },
  getElementById: byId,
  createElement: (tag) => new El(tag),
  querySelector: (q) => (q === "table" ? new El("table") : byId("rows").children[0] || null),
  activeElement: null,
};
global.fetch = (url) => Promise.resolve({ json: () => Promise.resolve(url.endsWith("/clock") ? { session: 1, remaining_s: null, called: [] } : data) });
const ticks = [];
global.setInterval = (fn) => { ticks.push(fn); return ticks.length; };
eval(fs.readFileSync(process.argv[2], "utf8"));
const text = (e) => e.textContent || e.children.map(text).join("");
setTimeout(() => {
  const shown = [];
  for (let i = 0; i < 3; i += 1) {
    const head = byId("head").children[0];
    shown.push({ head: head ? head.children.map(text) : [], rows: byId("rows").children.map((r) => r.children.map(text)), what: byId("what").textContent });
    ticks[0]();  // the page timer: the next page
  }
  console.log(JSON.stringify(shown));
  process.exit(0);
}, 50);
