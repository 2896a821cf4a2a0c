// Boot, the hash router and the shared app context.
//   #login  #lobby  #table  #calc  #replay/<handId>[/review]  #player/<id> (or #player/me)  #leaderboard[/<rules>]

import { api, getToken, setToken } from "./api.js";
import { Connection } from "./conn.js";
import { bi, clear, fmtInt, h, L, toast } from "./util.js";
import * as loginPage from "./login.js";
import * as lobbyPage from "./lobby.js";
import * as tablePage from "./table.js";
import * as replayPage from "./replay.js";
import * as calcPage from "./calc.js";
import * as playerPage from "./player.js";
import * as leaderboardPage from "./leaderboard.js";
import { attachFriendMessages } from "./friends.js";
import { itemErrorText } from "./items.js";
import { loadRulesets } from "./rulesets.js";
import { LANGS, applyLang, getLang, msg, nextLang, setLang, tr } from "./i18n.js";
import { isMuted, setMuted } from "./sound.js";

const PAGES = {
  login: { mod: loginPage, auth: false },
  lobby: { mod: lobbyPage, auth: true },
  table: { mod: tablePage, auth: true },
  calc: { mod: calcPage, auth: false },
  replay: { mod: replayPage, auth: false },
  player: { mod: playerPage, auth: false },
  leaderboard: { mod: leaderboardPage, auth: false },
};

export const app = {
  me: null,
  conn: new Connection(getToken),
  route: null,
  cleanup: null,
  welcomed: false,

  go(hash) {
    if (location.hash === "#" + hash) render();
    else location.hash = hash;
  },

  loggedIn() {
    return !!getToken();
  },

  /** Log in with a {token, account} reply. */
  async signedIn(reply) {
    setToken(reply.token);
    this.me = reply.account;
    this.welcomed = false;
    renderAccount();
    this.conn.connect();
    const next = sessionStorage.getItem("majiang.next");
    sessionStorage.removeItem("majiang.next");
    this.go(next && next !== "login" ? next : "lobby");
  },

  async refreshMe() {
    if (!getToken()) return null;
    try {
      const me = await api("/api/me");
      this.me = me;
      renderAccount();
      this.conn.emit("_me", me);
      return me;
    } catch (e) {
      if (e.status === 401) {
        toast(tr("app.session_expired"), "error");
        this.signOut(false);
      }
      return null;
    }
  },

  async signOut(tellServer = true) {
    if (tellServer) {
      try {
        await api("/api/logout", { method: "POST" });
      } catch { /* the token is dropped anyway */ }
    }
    this.conn.stop();
    setToken(null);
    this.me = null;
    tablePage.session.forget();
    renderAccount();
    this.go("login");
  },
};

window.mj = app; // for the browser tests and the curious

function renderAccount() {
  const box = document.getElementById("account");
  clear(box);
  const me = app.me;
  document.getElementById("nav-me").hidden = !me;
  if (!me) {
    box.append(h("a.btn.small", { href: "#login" }, L("login.log_in")));
    return;
  }
  box.append(
    h("span.coins", { i18n: { title: "app.coins" }, id: "balance", dataset: { balance: me.balance } },
      h("span.coin-icon", { dataset: { langFree: "" } }, "币"), fmtInt(me.balance)),
    h("a.who", { href: `#player/${me.id}`, i18n: { title: "app.my_stats" } },
      me.kind === "guest" ? h("span.badge.guest", L("main.guest")) : null, h("span.who-name", me.name)),
    h("button.btn.small.ghost", { on: { click: () => app.signOut() }, id: "logout", i18n: { title: "app.log_out" } },
      L("main.log_out")),
  );
}

function render() {
  const raw = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  let [name, ...rest] = raw.split("/");
  const arg = rest.join("/");
  if (!name) name = getToken() ? "lobby" : "login";
  let page = PAGES[name];
  if (!page) {
    name = getToken() ? "lobby" : "login";
    page = PAGES[name];
  }
  if (page.auth && !getToken()) {
    sessionStorage.setItem("majiang.next", raw || "lobby");
    name = "login";
    page = PAGES.login;
  }
  if (typeof app.cleanup === "function") {
    try {
      app.cleanup();
    } catch (e) {
      console.error(e);
    }
  }
  app.cleanup = null;
  app.route = name;
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("on", a.dataset.route === name);
  document.body.dataset.route = name;
  const root = clear(document.getElementById("app"));
  app.cleanup = page.mod.mount(root, arg, app) || null;
}

// ---- global messages --------------------------------------------------------------------------------
app.conn.on("welcome", (m) => {
  app.welcomed = true;
  if (app.me) app.me.id = m.account.id;
});
app.conn.on("kicked", (m) => {
  // the server closes this connection: stop the table's prompt and timers and say so (no reconnect)
  app.conn.stop();
  tablePage.session.kick(m.reason);
  toast(tr("app.kicked"), "error", 10000);
});
app.conn.on("_closed", (e) => {
  if (e.code === 4401) {
    toast(tr("app.invalid_session"), "error", 8000);
    app.signOut(false);
  }
});
attachFriendMessages(app.conn, (code) => { // an invite's 加入: the private table by its code
  tablePage.session.expectSeat();
  app.conn.send({ type: "join", code });
});
app.conn.on("error", (m) => {
  if (m.code === "stale") return; // a late reply to an answered prompt: nothing to say
  if (m.code === "rate_limited") return;
  toast(itemErrorText(m) || m.message || m.code, "error", 6000);
});

/** The header's language and sound switches (both remembered in localStorage). */
function renderPrefs() {
  const langBtn = document.getElementById("lang-toggle");
  const cur = LANGS.find(([v]) => v === getLang());
  langBtn.textContent = cur[1];
  langBtn.dataset.lang = cur[0];
  langBtn.title = tr("app.lang_title", { lang: cur[2] });
  const mute = document.getElementById("mute-toggle");
  mute.textContent = isMuted() ? "♪̸" : "♪";
  mute.setAttribute("aria-pressed", isMuted() ? "true" : "false");
  mute.title = tr(isMuted() ? "app.sound_off" : "app.sound_on");
}

window.addEventListener("hashchange", render);
window.addEventListener("DOMContentLoaded", async () => {
  tablePage.session.attach(app);
  for (const el of document.querySelectorAll("[data-i18n]")) { // the shell's labels (index.html) from the catalogue
    const m = msg(el.dataset.i18n);
    el.replaceChildren(h("span.zh", m.zh), " ", h("span.en", m.en));
  }
  applyLang();
  renderPrefs();
  document.getElementById("lang-toggle").addEventListener("click", () => {
    setLang(nextLang());
    renderPrefs();
    if (app.route === "table") tablePage.session.redraw(); // its plain strings follow the language too
  });
  document.getElementById("mute-toggle").addEventListener("click", () => {
    setMuted(!isMuted());
    renderPrefs();
  });
  renderAccount();
  try {
    await loadRulesets();
  } catch {
    toast(tr("app.no_rulesets"), "error");
  }
  if (getToken()) {
    app.conn.connect();
    await app.refreshMe();
  }
  render();
});
