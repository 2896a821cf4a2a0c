// Log in, register, or play as a guest.  The token goes to localStorage (api.js).

import { api, getToken } from "./api.js";
import { msg, tr } from "./i18n.js";
import { bi, h, L } from "./util.js";
import { tileEl } from "./tiles.js";

export function mount(root, _arg, app) {
  if (getToken() && app.me) {
    app.go("lobby");
    return null;
  }
  let mode = "login";
  const error = h("p.form-error#login-error", { role: "alert", hidden: true });
  const user = h("input#username", { name: "username", autocomplete: "username", required: true, minLength: 3,
    maxLength: 20, i18n: { placeholder: "login.username_placeholder" } });
  const pass = h("input#password", { name: "password", type: "password", autocomplete: "current-password",
    required: true, minLength: 8, maxLength: 200, i18n: { placeholder: "login.password_placeholder" } });
  const pass2 = h("input#password2", { name: "password2", type: "password", autocomplete: "new-password",
    maxLength: 200, i18n: { placeholder: "login.password2_placeholder" } });
  const pass2Row = h("label.field", { hidden: true }, L("login.confirm_password"), pass2);
  const submit = h("button.btn.primary.big#submit", { type: "submit" });
  const tabLogin = h("button.tab#tab-login", { type: "button", on: { click: () => setMode("login") } },
    L("login.log_in"));
  const tabReg = h("button.tab#tab-register", { type: "button", on: { click: () => setMode("register") } },
    L("login.register"));

  function setMode(m) {
    mode = m;
    tabLogin.classList.toggle("on", m === "login");
    tabReg.classList.toggle("on", m === "register");
    pass2Row.hidden = m !== "register";
    pass.autocomplete = m === "register" ? "new-password" : "current-password";
    submit.replaceChildren(m === "login" ? L("login.log_in") : L("login.create_account"));
    showError(null);
  }

  function showError(text) {
    error.hidden = !text;
    error.textContent = text || "";
  }

  async function go(path, body) {
    submit.disabled = true;
    guestBtn.disabled = true;
    showError(null);
    try {
      const reply = await api(path, { method: "POST", body, auth: false });
      await app.signedIn(reply);
    } catch (e) {
      showError(e.message);
    } finally {
      submit.disabled = false;
      guestBtn.disabled = false;
    }
  }

  const form = h("form.login-form", {
    noValidate: true,
    on: {
      submit: (e) => {
        e.preventDefault();
        const u = user.value.trim();
        if (u.length < 3) return showError(tr("login.short_username"));
        if (pass.value.length < 8) return showError(tr("login.short_password"));
        if (mode === "register" && pass.value !== pass2.value) {
          return showError(tr("login.passwords_differ"));
        }
        go(mode === "login" ? "/api/login" : "/api/register", { username: u, password: pass.value });
      },
    },
  },
  h("div.tabs", tabLogin, tabReg),
  h("label.field", L("login.username"), user),
  h("label.field", L("login.password"), pass),
  pass2Row,
  error,
  submit);

  const guestBtn = h("button.btn.ghost.big#guest", { type: "button", on: { click: () => go("/api/guest") } },
    L("login.play_as_a_guest"));

  const deco = h("div.login-deco", ["1m", "9p", "E", "C", "F", "P", "5s"].map((t) => tileEl(t, { size: "md" })));
  root.append(h("section.login-page",
    h("div.login-card",
      h("h1", h("span.zh", msg("app.title").zh), h("span.en", msg("app.title").en)),
      h("p.tagline", L("login.mcr_nanchang_private_tables_repl")),
      deco,
      form,
      h("div.or", h("span", L("login.or"))),
      guestBtn,
      h("p.small", h("a", { href: "#calc" }, L("login.fan_calculator"))),
    )));
  setMode("login");
  user.focus();
  return null;
}
