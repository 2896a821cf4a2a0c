// 好友 Friends (docs/web-client.md "Friends"): the lobby's card (add by username, requests to accept, the list
// with presence: online, at a table — watch it), the table page's invite card for a private table, and
// the messages a friend sends (a request, an invite: a toast with a button to join).

import { api } from "./api.js";
import { L, bi, h, toast } from "./util.js";
import { tr } from "./i18n.js";

async function load() {
  try {
    return await api("/api/friends");
  } catch {
    return null;
  }
}

/** The lobby's card; ``conn`` to watch a friend's public table.  Returns {el, refresh}. */
export function friendsCard(app, conn) {
  const el = h("div.card.friends-card#friends");
  const input = h("input#friend-name", { i18n: { placeholder: "username" }, autocomplete: "off", maxLength: 40 });
  const add = async () => {
    const name = input.value.trim();
    if (!name) return;
    try {
      const r = await api("/api/friends", { method: "POST", body: { username: name } });
      toast(tr(r.state === "accepted" ? "friends.now_friends" : "friends.request_sent", { name }), "info");
      input.value = "";
    } catch (e) {
      toast(e.message, "error");
    }
    refresh();
  };
  const act = async (path, method = "POST") => {
    try { await api(path, { method }); } catch (e) { toast(e.message, "error"); }
    refresh();
  };

  async function refresh() {
    const d = app.me && app.me.kind === "player" ? await load() : null;
    el.replaceChildren(h("h3", L("friends.friends")));
    if (!d) {
      el.append(h("p.small", L("friends.sign_up")));
      return;
    }
    el.append(h("div.row", input, h("button.btn#friend-add", { on: { click: add } }, L("friends.add"))));
    for (const r of d.incoming) {
      el.append(h("div.friend.incoming", { dataset: { account: r.account } }, h("span.name", { dataset: { langFree: "" } }, r.name),
        h("button.btn.small.primary.friend-accept", { on: { click: () => act(`/api/friends/${r.account}/accept`) } },
          L("friends.accept")),
        h("button.btn.small.friend-decline", { on: { click: () => act(`/api/friends/${r.account}`, "DELETE") } },
          L("friends.decline"))));
    }
    for (const f of d.friends) {
      const where = f.table ? L("friends.at_a_table") : f.at_private_table ? L("friends.private_table")
        : f.online ? L("online") : L("offline");
      el.append(h(`div.friend${f.online ? ".online" : ""}`, { dataset: { account: f.account } },
        h("span.dot", f.online ? "●" : "○"), h("span.name", { dataset: { langFree: "" } }, f.name), h("span.small.where", where),
        // at a public table: sit with him (a free seat, before his match starts) or watch
        f.table ? h("button.btn.small.primary.friend-join", { on: { click: () => conn.send({ type: "join", table: f.table }) } },
          L("lobby.join")) : null,
        f.table ? h("button.btn.small.friend-watch", { on: { click: () => conn.send({ type: "spectate", table: f.table }) } },
          L("lobby.watch")) : null,
        h("button.btn.small.ghost.friend-remove", { title: tr("friends.remove"), on: { click: () => act(`/api/friends/${f.account}`, "DELETE") } }, "✕")));
    }
    for (const r of d.outgoing) el.append(h("div.friend.outgoing.small", h("span.name", { dataset: { langFree: "" } }, r.name), L("friends.request_sent_2")));
    if (!d.friends.length && !d.incoming.length && !d.outgoing.length) {
      el.append(h("p.small", L("friends.none")));
    }
  }

  input.addEventListener("keydown", (e) => { if (e.key === "Enter") add(); });
  refresh();
  return { el, refresh };
}

/** The table page's card at a private table: invite an online friend (he gets the code). */
export function inviteCard() {
  const el = h("div.card.invite-card#invite-friends", h("h3", L("friends.invite_a_friend")));
  load().then((d) => {
    if (!d || !d.friends.length) {
      el.append(h("p.small", L("friends.none_invite")));
      return;
    }
    for (const f of d.friends) {
      el.append(h("div.friend", { dataset: { account: f.account } }, h("span.dot", f.online ? "●" : "○"), h("span.name", { dataset: { langFree: "" } }, f.name),
        h("button.btn.small.friend-invite", {
          on: {
            click: async () => {
              try {
                await api(`/api/friends/${f.account}/invite`, { method: "POST" });
                toast(tr("friends.invited", { name: f.name }), "info");
              } catch (e) {
                toast(e.message, "error");
              }
            },
          },
        }, L("friends.invite"))));
    }
  });
  return el;
}

/** A friend's request and invite, wherever the player is; ``join(code)`` takes the seat. */
export function attachFriendMessages(conn, join) {
  conn.on("friend_request", (m) => toast(tr("friends.request_from", { name: m.from }), "info", 8000));
  conn.on("invite", (m) => {
    const t = toast("", "info", 15000);
    t.append(tr("friends.invite_from", { name: m.from }), " ",
      h("button.btn.small.primary#invite-join", { on: { click: () => { t.remove(); join(m.code); } } }, L("lobby.join")));
  });
}
