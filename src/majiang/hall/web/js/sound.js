// Short synthesized sounds (Web Audio, no sound files): a discard's click, a claim's call, a win's
// chord, your turn's ping.  Muted by the header's switch, remembered in localStorage (majiang.mute).

const KEY = "majiang.mute";
let ctx = null;
let muted = false;
try {
  muted = localStorage.getItem(KEY) === "1";
} catch { /* private mode */ }

export const played = []; // the names of the sounds played, for the tests and the curious

export function isMuted() {
  return muted;
}

export function setMuted(on) {
  muted = !!on;
  try {
    localStorage.setItem(KEY, muted ? "1" : "0");
  } catch { /* private mode */ }
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try {
      ctx = new AC();
    } catch {
      return null;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(ac, { freq, at = 0, dur = 0.12, type = "sine", gain = 0.18, slide = null }) {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

const SOUNDS = {
  discard: (ac) => tone(ac, { freq: 900, dur: 0.06, type: "triangle", gain: 0.22, slide: 500 }),
  claim: (ac) => {
    tone(ac, { freq: 520, dur: 0.14, type: "square", gain: 0.08 });
    tone(ac, { freq: 780, at: 0.1, dur: 0.18, type: "square", gain: 0.08 });
  },
  kong: (ac) => {
    tone(ac, { freq: 392, dur: 0.16, type: "sawtooth", gain: 0.07 });
    tone(ac, { freq: 587, at: 0.12, dur: 0.22, type: "sawtooth", gain: 0.07 });
  },
  win: (ac) => [523, 659, 784, 1047].forEach((f, i) => tone(ac, { freq: f, at: i * 0.09, dur: 0.4, gain: 0.14 })),
  turn: (ac) => tone(ac, { freq: 1320, dur: 0.15, gain: 0.12 }),
};

/** Play a sound by name (discard, claim, kong, win, turn) unless muted. */
export function play(name) {
  if (muted || !SOUNDS[name]) return;
  played.push(name);
  if (played.length > 50) played.shift();
  const ac = audio();
  if (!ac) return;
  try {
    SOUNDS[name](ac);
  } catch { /* no audio output */ }
}
