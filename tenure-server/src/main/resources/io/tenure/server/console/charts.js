// Tenure web console: the queue history this page samples, and its charts and sparklines.
import { fmtSpan } from './format.js';
import { state } from './state.js';

const HISTORY_MS = 5 * 60 * 1000;
const HISTORY_MAX = 400;

export function sampleQueues(data) {
  const t = Date.now();
  const names = new Set();
  for (const q of data.queues ?? []) {
    names.add(q.name);
    let ring = state.history.get(q.name);
    if (!ring) state.history.set(q.name, (ring = []));
    ring.push({ t, pending: q.pending ?? 0, inflight: q.inflight ?? 0, oldest: q.oldestPendingAgeMs ?? 0 });
    while (ring.length > HISTORY_MAX || (ring.length && ring[0].t < t - HISTORY_MS)) ring.shift();
  }
  for (const name of state.history.keys()) if (!names.has(name)) state.history.delete(name);
}

export const colors = {};
export function loadColors() {
  const css = getComputedStyle(document.documentElement);
  const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  colors.depth = v('--c-depth', '#5aa9ff');
  colors.inflight = v('--c-inflight', '#bc8cff');
  colors.oldest = v('--c-oldest', '#d29922');
  colors.grid = v('--border', '#2a3240');
  colors.muted = v('--muted', '#8b96a5');
  colors.font = v('--font-mono', 'monospace');
}

/** Draws samples[key] over the last HISTORY_MS; sparklines have no axes. */
export function drawChart(canvas, samples, key, color, { spark = false, fmt = String } = {}) {
  const dpr = window.devicePixelRatio || 1;
  const cssW = spark ? 72 : Math.max(120, Math.floor(canvas.clientWidth || canvas.parentElement.clientWidth || 240));
  const cssH = spark ? 18 : 90;
  if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    if (spark) {
      canvas.style.width = `${cssW}px`;
      canvas.style.height = `${cssH}px`;
    }
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, cssW, cssH);
  const now = Date.now();
  // The window grows with the samples this page has collected, up to HISTORY_MS.
  const span = Math.min(HISTORY_MS, Math.max(60000, samples.length ? now - samples[0].t : 0));
  const t0 = now - span;
  const padL = spark ? 1 : 4;
  const padR = spark ? 1 : 4;
  const padT = spark ? 2 : 14;
  const padB = spark ? 2 : 14;
  const w = cssW - padL - padR;
  const ht = cssH - padT - padB;
  let max = 0;
  for (const s of samples) max = Math.max(max, s[key]);
  const top = max > 0 ? max * 1.1 : 1;
  const x = (t) => padL + ((t - t0) / span) * w;
  const y = (v) => padT + ht - (v / top) * ht;

  if (!spark) {
    ctx.strokeStyle = colors.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const f of [0, 0.5, 1]) {
      const gy = Math.round(padT + ht * f) + 0.5;
      ctx.moveTo(padL, gy);
      ctx.lineTo(padL + w, gy);
    }
    const step = span > 120000 ? 60000 : 15000;
    for (let m = step; m < span; m += step) {
      const gx = Math.round(x(now - m)) + 0.5;
      ctx.moveTo(gx, padT);
      ctx.lineTo(gx, padT + ht);
    }
    ctx.stroke();
    ctx.fillStyle = colors.muted;
    ctx.font = `10px ${colors.font}`;
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'left';
    ctx.fillText(`max ${fmt(max)}`, padL, padT - 2);
    ctx.textBaseline = 'top';
    ctx.fillText(`−${fmtSpan(span)}`, padL, padT + ht + 2);
    ctx.textAlign = 'right';
    ctx.fillText('now', padL + w, padT + ht + 2);
  }
  if (samples.length === 0) return;
  ctx.beginPath();
  samples.forEach((s, i) => {
    const px = x(s.t);
    const py = y(s[key]);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  });
  ctx.strokeStyle = color;
  ctx.lineWidth = spark ? 1.25 : 1.5;
  ctx.lineJoin = 'round';
  ctx.stroke();
  const last = samples[samples.length - 1];
  ctx.lineTo(x(last.t), padT + ht);
  ctx.lineTo(x(samples[0].t), padT + ht);
  ctx.closePath();
  ctx.globalAlpha = 0.18;
  ctx.fillStyle = color;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.beginPath();
  ctx.arc(x(last.t), y(last[key]), spark ? 1.6 : 2.5, 0, Math.PI * 2);
  ctx.fillStyle = color;
  ctx.fill();
}
