// Tile names and tile images (SVG drawn here, used as cached data: URLs so the page stays CSP-clean).

const NUM_ZH = "一二三四五六七八九";
const SUIT_ZH = { m: "万", p: "饼", s: "条" };
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const HONOR = {
  E: ["东", "East Wind"], S: ["南", "South Wind"], W: ["西", "West Wind"], N: ["北", "North Wind"],
  C: ["中", "Red Dragon"], F: ["发", "Green Dragon"], P: ["白", "White Dragon"],
};
const FLOWER_ZH = "春夏秋冬梅兰竹菊";
const FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];

export const SUITED = [..."mps"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n + s));
export const HONORS = ["E", "S", "W", "N", "C", "F", "P"];
export const ALL_KINDS = [...SUITED, ...HONORS];
export const FLOWERS = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"];

export function tileZh(t) {
  if (!t) return "牌背";
  if (/^[1-9][mps]$/.test(t)) return NUM_ZH[+t[0] - 1] + SUIT_ZH[t[1]];
  if (HONOR[t]) return HONOR[t][0];
  if (/^f[1-8]$/.test(t)) return FLOWER_ZH[+t[1] - 1];
  return t;
}

export function tileEn(t) {
  if (!t) return "face down";
  if (/^[1-9][mps]$/.test(t)) return `${t[0]} ${SUIT_EN[t[1]]}`;
  if (HONOR[t]) return HONOR[t][1];
  if (/^f[1-8]$/.test(t)) return FLOWER_EN[+t[1] - 1];
  return t;
}

export function tileName(t) {
  return `${tileZh(t)} ${tileEn(t)}`;
}

/** Sort key: 万 饼 条, winds, dragons, flowers. */
export function tileOrder(t) {
  if (!t) return 99;
  if (/^[1-9][mps]$/.test(t)) return "mps".indexOf(t[1]) * 9 + (+t[0] - 1);
  const i = HONORS.indexOf(t);
  if (i >= 0) return 27 + i;
  if (/^f[1-8]$/.test(t)) return 34 + (+t[1] - 1);
  return 98;
}

export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileOrder(a) - tileOrder(b));
}

export function isSuited(t) {
  return /^[1-9][mps]$/.test(t);
}

export function nextTile(t, k = 1) {
  if (!isSuited(t)) return null;
  const n = +t[0] + k;
  return n >= 1 && n <= 9 ? n + t[1] : null;
}

// ---- drawing ------------------------------------------------------------------------------------
const BLUE = "#1d4fa0";
const GREEN = "#17804a";
const RED = "#c9252c";
const INK = "#1a2650";
const SERIF = "'Noto Serif CJK SC','Noto Serif CJK','Source Han Serif SC','Songti SC','STSong','SimSun',serif";
const SANS = "'Noto Sans CJK SC','Noto Sans CJK','Source Han Sans SC','PingFang SC','Microsoft YaHei',sans-serif";

function dot(x, y, r, c) {
  return `<g><circle cx="${x}" cy="${y}" r="${r}" fill="${c}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.74}" fill="#fffdf4"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.54}" fill="${c}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.2}" fill="#fffdf4"/></g>`;
}

const DOTS = {
  2: [[30, 22, 12, GREEN], [30, 58, 12, BLUE]],
  3: [[15, 17, 10, BLUE], [30, 40, 10, RED], [45, 63, 10, GREEN]],
  4: [[17, 22, 11, BLUE], [43, 22, 11, GREEN], [17, 58, 11, GREEN], [43, 58, 11, BLUE]],
  5: [[16, 17, 10, BLUE], [44, 17, 10, GREEN], [30, 40, 10, RED], [16, 63, 10, GREEN], [44, 63, 10, BLUE]],
  6: [[18, 15, 9, GREEN], [42, 15, 9, GREEN], [18, 43, 9, RED], [42, 43, 9, RED], [18, 65, 9, RED], [42, 65, 9, RED]],
  7: [[14, 12, 7.6, GREEN], [30, 20, 7.6, GREEN], [46, 28, 7.6, GREEN],
    [18, 48, 8.4, RED], [42, 48, 8.4, RED], [18, 67, 8.4, RED], [42, 67, 8.4, RED]],
  8: [18, 42].flatMap((x) => [12, 30.5, 49.5, 68].map((y) => [x, y, 8.3, BLUE])),
  9: [[16, BLUE], [40, RED], [64, GREEN]].flatMap(([y, c]) => [14, 30, 46].map((x) => [x, y, 7.8, c])),
};

function dots(n) {
  if (n === 1) {
    const rings = [[22, GREEN], [19, "#fffdf4"], [16.5, RED], [13.5, "#fffdf4"], [11, BLUE], [7, "#fffdf4"],
      [4.2, RED]];
    let s = rings.map(([r, c]) => `<circle cx="30" cy="40" r="${r}" fill="${c}"/>`).join("");
    for (let i = 0; i < 8; i++) {
      const a = (i * Math.PI) / 4;
      s += `<circle cx="${30 + 12.2 * Math.cos(a)}" cy="${40 + 12.2 * Math.sin(a)}" r="1.4" fill="#fffdf4"/>`;
    }
    return s;
  }
  return DOTS[n].map(([x, y, r, c]) => dot(x, y, r, c)).join("");
}

function stick(x, y, len, c, rot = 0) {
  const w = 6.4;
  const t = rot ? ` transform="rotate(${rot} ${x} ${y + len / 2})"` : "";
  return `<g${t}><rect x="${x - w / 2}" y="${y}" width="${w}" height="${len}" rx="${w / 2}" fill="${c}"/>` +
    `<rect x="${x - w / 2 - 0.8}" y="${y + len / 2 - 1.3}" width="${w + 1.6}" height="2.6" rx="1.3" fill="${c}"/>` +
    `<line x1="${x}" y1="${y + 2.5}" x2="${x}" y2="${y + len - 2.5}" stroke="#fffdf4" stroke-width="1.1" ` +
    `stroke-linecap="round" opacity=".75"/></g>`;
}

function bamboo(n) {
  const L = 27;
  switch (n) {
    case 1: // the bird (幺鸡)
      return `<g>
        <path d="M30 50 L14 72 L22 70 L26 76 L30 68 L34 76 L38 70 L46 72 Z" fill="${BLUE}"/>
        <path d="M30 52 L20 70 L30 64 L40 70 Z" fill="${GREEN}"/>
        <ellipse cx="30" cy="42" rx="12" ry="14" fill="${GREEN}"/>
        <ellipse cx="32.5" cy="44" rx="6.5" ry="10" fill="${RED}"/>
        <path d="M18 38 Q10 46 20 52 Q18 44 24 40 Z" fill="${BLUE}"/>
        <circle cx="30" cy="21" r="8.5" fill="${GREEN}"/>
        <circle cx="27" cy="11" r="2.4" fill="${RED}"/><circle cx="31" cy="10" r="2.4" fill="${RED}"/>
        <circle cx="35" cy="12" r="2.2" fill="${RED}"/>
        <path d="M37.5 20 L45 23 L37.5 25 Z" fill="#e3a21a"/>
        <circle cx="32.5" cy="19.5" r="2.4" fill="#fffdf4"/><circle cx="33.1" cy="19.6" r="1.2" fill="#111"/>
      </g>`;
    case 2:
      return stick(30, 9, L, GREEN) + stick(30, 44, L, BLUE);
    case 3:
      return stick(30, 9, L, BLUE) + stick(19, 44, L, GREEN) + stick(41, 44, L, GREEN);
    case 4:
      return stick(19, 9, L, BLUE) + stick(41, 9, L, GREEN) + stick(19, 44, L, GREEN) + stick(41, 44, L, BLUE);
    case 5:
      return stick(15, 9, L, GREEN) + stick(45, 9, L, BLUE) + stick(30, 26.5, L, RED) +
        stick(15, 44, L, BLUE) + stick(45, 44, L, GREEN);
    case 6:
      return [15, 30, 45].map((x) => stick(x, 9, L, GREEN) + stick(x, 44, L, BLUE)).join("");
    case 7:
      return stick(30, 4, 21, RED) +
        [15, 30, 45].map((x) => stick(x, 29, 21, GREEN) + stick(x, 54, 21, BLUE)).join("");
    case 8:
      return [12, 24, 36, 48].map((x, i) => stick(x, 8, 28, GREEN, i % 2 ? 14 : -14) +
        stick(x, 44, 28, BLUE, i % 2 ? -14 : 14)).join("");
    case 9:
      return [15, 30, 45].map((x, i) => [5, 29, 53].map((y) =>
        stick(x, y, 22, i === 1 ? RED : i === 0 ? GREEN : BLUE)).join("")).join("");
    default:
      return "";
  }
}

function text(x, y, size, fill, s, font = SERIF, weight = 700) {
  return `<text x="${x}" y="${y}" font-family="${font}" font-size="${size}" font-weight="${weight}" ` +
    `fill="${fill}" text-anchor="middle">${s}</text>`;
}

function face(t) {
  if (/^[1-9]m$/.test(t)) {
    return text(30, 35, 27, INK, NUM_ZH[+t[0] - 1]) + text(30, 71, 31, RED, "萬");
  }
  if (/^[1-9]p$/.test(t)) return dots(+t[0]);
  if (/^[1-9]s$/.test(t)) return bamboo(+t[0]);
  const honor = { E: "東", S: "南", W: "西", N: "北" }[t];
  if (honor) return text(30, 57, 42, INK, honor);
  if (t === "C") return text(30, 57, 46, RED, "中");
  if (t === "F") return text(30, 57, 42, GREEN, "發");
  if (t === "P") {
    return `<rect x="13" y="14" width="34" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="4"/>` +
      `<rect x="19" y="20" width="22" height="40" rx="1.5" fill="none" stroke="${BLUE}" stroke-width="1.4"/>`;
  }
  if (/^f[1-8]$/.test(t)) {
    const i = +t[1] - 1;
    const c = i < 4 ? GREEN : RED;
    const petals = [0, 72, 144, 216, 288].map((a) =>
      `<ellipse cx="47" cy="66" rx="2.6" ry="5" fill="${i < 4 ? RED : BLUE}" transform="rotate(${a} 47 70)"/>`).join("");
    return text(13, 18, 15, i < 4 ? RED : BLUE, String((i % 4) + 1), SANS) +
      text(31, 51, 34, c, FLOWER_ZH[i]) + petals + `<circle cx="47" cy="70" r="2" fill="#e3a21a"/>`;
  }
  return text(30, 50, 24, "#999", "?", SANS);
}

const W = 60;
const H = 80;

function svgFor(t, sideways) {
  const back = !t;
  const defs = `<defs><linearGradient id="g" x1="0" y1="0" x2="0.35" y2="1">` +
    (back ? `<stop offset="0" stop-color="#3aa874"/><stop offset="1" stop-color="#1b6b45"/>`
      : `<stop offset="0" stop-color="#fffef8"/><stop offset="1" stop-color="#efe7d0"/>`) +
    `</linearGradient></defs>`;
  let body = `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="7" fill="url(#g)" ` +
    `stroke="${back ? "#145a38" : "#cfc3a0"}" stroke-width="1"/>`;
  if (back) {
    body += `<rect x="6" y="6" width="${W - 12}" height="${H - 12}" rx="4" fill="none" stroke="#7fd1a8" ` +
      `stroke-width="1.2" opacity=".55"/>` +
      `<path d="M30 24 L42 40 L30 56 L18 40 Z" fill="none" stroke="#9fe0bf" stroke-width="1.4" opacity=".55"/>` +
      `<circle cx="30" cy="40" r="4" fill="#9fe0bf" opacity=".55"/>`;
  } else {
    body += face(t);
  }
  const inner = defs + body;
  if (sideways) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${H} ${W}" width="${H}" height="${W}">` +
      `<g transform="translate(0 ${W}) rotate(-90)">${inner}</g></svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">${inner}</svg>`;
}

const cache = new Map();

/** data: URL of a tile image; t = null for a face-down tile. */
export function tileSrc(t, sideways = false) {
  const key = (t || "back") + (sideways ? ":side" : "");
  if (!cache.has(key)) {
    cache.set(key, "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgFor(t, sideways)));
  }
  return cache.get(key);
}

/**
 * A tile image element.  opts: {size: "xs|sm|md|lg", sideways, title, cls}.
 * Every tile carries its name as a tooltip (title) and alt text, and data-tile = its code.
 */
export function tileEl(t, opts = {}) {
  const img = document.createElement("img");
  img.className = `tile ${opts.size || "md"}${opts.sideways ? " side" : ""}${t ? "" : " back"}` +
    (opts.cls ? " " + opts.cls : "");
  img.src = tileSrc(t, !!opts.sideways);
  img.alt = t ? tileZh(t) : "牌背";
  img.title = opts.title || (t ? tileName(t) : "牌背 face down");
  img.draggable = false;
  if (t) img.dataset.tile = t;
  return img;
}
