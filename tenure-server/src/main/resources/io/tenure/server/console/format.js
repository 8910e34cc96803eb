// Tenure web console: how numbers, durations, instants and ids read on the page.

export function fmtAge(ms) {
  if (ms == null || !Number.isFinite(ms)) return '—';
  if (ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  const hr = Math.floor(m / 60);
  if (hr < 24) return `${hr} h ${String(m % 60).padStart(2, '0')} m`;
  return `${Math.floor(hr / 24)} d ${hr % 24} h`;
}

export function fmtSpan(ms) {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

export function fmtNum(n) {
  if (n == null || !Number.isFinite(Number(n))) return '—';
  return Number(n).toLocaleString('en-US');
}

export function fmtRate(r) {
  if (r == null || !Number.isFinite(Number(r))) return '—';
  const v = Number(r);
  return v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US');
}

export function parseTime(iso) {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

export function fmtClock(iso, millis = true) {
  const t = parseTime(iso);
  if (t == null) return iso ? String(iso) : '—';
  const s = new Date(t).toISOString(); // always UTC, like the database clock
  return millis ? s.slice(11, 23) : s.slice(11, 19);
}

export function fmtDate(iso) {
  const t = parseTime(iso);
  return t == null ? '' : new Date(t).toISOString().slice(0, 10);
}

export function truncate(s, n) {
  const str = s == null ? '' : String(s);
  return str.length > n ? `${str.slice(0, n - 1)}…` : str;
}

export function lower(s) {
  return String(s ?? '').toLowerCase().replace(/[^a-z0-9_-]/g, '');
}

export function shortId(id) {
  return id ? String(id).slice(0, 8) : '';
}
