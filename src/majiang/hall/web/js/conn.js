// The WebSocket to the hall: one per account, reconnecting by itself after a drop.

export class Connection {
  constructor(tokenFn) {
    this.tokenFn = tokenFn;
    this.ws = null;
    this.handlers = new Map(); // type → Set(fn); "*" gets everything
    this.state = "closed"; // closed | connecting | open | waiting (to reconnect) | stopped
    this.retry = 0;
    this.timer = null;
    this.queue = [];
    this.everOpened = false;
    this.pingTimer = null;
    this.history = []; // connection states, for the curious and the tests
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  emit(type, msg) {
    for (const key of [type, "*"]) {
      for (const fn of this.handlers.get(key) || []) {
        try {
          fn(msg);
        } catch (e) {
          console.error("handler for", type, "failed:", e);
        }
      }
    }
  }

  setState(s) {
    this.state = s;
    this.history.push(s);
    if (this.history.length > 50) this.history.shift();
    document.body.dataset.conn = s;
    this.emit("_state", { state: s, retry: this.retry });
  }

  connect() {
    const token = this.tokenFn();
    if (!token) return;
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      try {
        this.ws.close();
      } catch { /* already closed */ }
    }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(token)}`);
    this.ws = ws;
    this.setState("connecting");
    ws.onopen = () => {
      this.retry = 0;
      this.everOpened = true;
      this.setState("open");
      const q = this.queue;
      this.queue = [];
      for (const m of q) ws.send(JSON.stringify(m));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.emit(msg.type, msg);
    };
    ws.onclose = (e) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (e.code === 4401 || e.code === 4000 || this.state === "stopped") {
        this.setState("stopped");
        this.emit("_closed", { code: e.code, reason: e.reason });
        return;
      }
      const delay = Math.min(8000, 400 * 2 ** this.retry);
      this.retry += 1;
      this.setState("waiting");
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Send a message; while the socket is down it is queued (only the last few are kept). */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    if (msg.type !== "ping" && msg.type !== "action") {
      this.queue.push(msg);
      this.queue = this.queue.slice(-10);
    }
    return false;
  }

  /** Drop the connection as a network failure would (the client reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close(4999, "dropped");
  }

  stop() {
    this.setState("stopped");
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
  }
}
