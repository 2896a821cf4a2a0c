// HTTP API and the session token (kept in localStorage).

const KEY = "majiang.token";

export function getToken() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function setToken(token) {
  try {
    if (token) localStorage.setItem(KEY, token);
    else localStorage.removeItem(KEY);
  } catch {
    /* private mode: the session lasts as long as the page */
  }
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** FastAPI errors in words: {"detail": "..."} or a validation list. */
function errorText(status, body) {
  const d = body && body.detail;
  if (typeof d === "string") return d;
  if (Array.isArray(d) && d.length) {
    return d.map((e) => {
      const where = (e.loc || []).filter((x) => x !== "body").join(".");
      let msg = e.msg || "invalid";
      if (e.type === "string_too_short" && e.ctx) msg = `must have at least ${e.ctx.min_length} characters`;
      if (e.type === "string_too_long" && e.ctx) msg = `must have at most ${e.ctx.max_length} characters`;
      return where ? `${where}: ${msg}` : msg;
    }).join("; ");
  }
  if (status === 404) return "not found";
  if (status === 413) return "too large";
  return `the server answered ${status}`;
}

export async function api(path, { method = "GET", body, auth = true } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = getToken();
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "cannot reach the server (network error)");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, errorText(res.status, data));
  return data;
}
