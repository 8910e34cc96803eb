// Tenure web console: the admin API over fetch (contract: docs/ADMIN-API.md), with the bearer
// token a node may require.
import { truncate } from './format.js';

const READ_TIMEOUT_MS = 2000;
// POST /api/agents/pause "returns once it runs nowhere": that can take longer than a poll.
const ACTION_TIMEOUT_MS = 15000;
const TOKEN_KEY = 'tenure.adminToken';

class HttpError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

async function request(method, path, body, timeoutMs) {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  // A node with a token wants it on every /api call, reads too (docs/ADMIN-API.md).
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctrl.signal,
      cache: 'no-store',
      credentials: 'same-origin',
    });
    const text = await res.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    }
    return { status: res.status, ok: res.ok, data, text };
  } catch (e) {
    if (e.name === 'AbortError') {
      throw new HttpError(`${method} ${path}: no answer within ${timeoutMs / 1000} s`, 0, null);
    }
    const why = e.name === 'TypeError' ? 'cannot reach the server' : e.message || 'network error';
    throw new HttpError(`${method} ${path}: ${why}`, 0, null);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(res) {
  if (res.data && typeof res.data.error === 'string') return res.data.error;
  const body = res.text ? `: ${truncate(res.text.trim(), 160)}` : '';
  return `HTTP ${res.status}${body}`;
}

/** Reads ask for a token at most once per page: the polls would otherwise ask every second. */
let readsAskedForToken = false;

/**
 * Sends a request; on 401 asks for the bearer token (once per page for reads, every time for an
 * action the user clicked), keeps it for the session and retries.
 */
async function authorized(method, path, body, timeoutMs) {
  let res = await request(method, path, body, timeoutMs);
  if (res.status !== 401 || (method === 'GET' && readsAskedForToken)) return res;
  if (method === 'GET') readsAskedForToken = true;
  const had = sessionStorage.getItem(TOKEN_KEY);
  if (had) sessionStorage.removeItem(TOKEN_KEY);
  const token = window.prompt(
    had
      ? 'The admin token was rejected. Enter the bearer token (--http-token / TENURE_HTTP_TOKEN):'
      : 'This server requires a bearer token (--http-token / TENURE_HTTP_TOKEN):',
  );
  if (token && token.trim()) {
    sessionStorage.setItem(TOKEN_KEY, token.trim());
    res = await request(method, path, body, timeoutMs);
    if (res.status === 401) sessionStorage.removeItem(TOKEN_KEY);
    else readsAskedForToken = false;
  }
  return res;
}

/** A token given in the URL's fragment (#token=...) is kept for the session and removed from the URL. */
export function takeTokenFromFragment() {
  const match = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (!match) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
  history.replaceState(null, '', location.pathname + location.search);
}

export async function getJson(path, { allow404 = false } = {}) {
  const res = await authorized('GET', path, undefined, READ_TIMEOUT_MS);
  if (allow404 && res.status === 404) return null;
  if (!res.ok) throw new HttpError(`GET ${path}: ${errorText(res)}`, res.status, res.data);
  if (res.data == null || typeof res.data !== 'object') {
    throw new HttpError(`GET ${path}: the answer is not JSON`, res.status, null);
  }
  return res.data;
}

/** POST; on 401 asks for a bearer token, keeps it for the session and retries. */
export async function postJson(path, body) {
  const res = await authorized('POST', path, body, ACTION_TIMEOUT_MS);
  if (!res.ok) throw new HttpError(errorText(res), res.status, res.data);
  return res.data ?? {};
}

export const enc = encodeURIComponent;
