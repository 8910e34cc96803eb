// Tenure web console: plain ES2022, no framework, no build step.
// Contract: docs/ADMIN-API.md. Every string that comes from the API reaches the DOM through
// textContent / attributes (never innerHTML), so a hostile agent URI or error text stays text.
'use strict';

(() => {
  const FAST_MS = 1000; // cluster, agents, queues, the chosen queue's dead letters, demo
  const SLOW_MS = 3000; // events
  const READ_TIMEOUT_MS = 2000;
  // POST /api/agents/pause "returns once it runs nowhere": that can take longer than a poll.
  const ACTION_TIMEOUT_MS = 15000;
  const HISTORY_MS = 5 * 60 * 1000;
  const HISTORY_MAX = 400;
  const DEAD_LIMIT = 50;
  const EVENT_LIMIT = 100;
  const HEARTBEAT_WARN_MS = 2000;
  const HEARTBEAT_BAD_MS = 5000;
  const TOKEN_KEY = 'tenure.adminToken';
  const DEMO_RULES = {
    stop: (s) => s === 'running',
    kill: (s) => s === 'running',
    pause: (s) => s === 'running',
    resume: (s) => s === 'paused',
    start: (s) => s === 'stopped' || s === 'killed',
  };
  const DEMO_TITLES = {
    stop: 'SIGTERM: the node leaves gracefully',
    kill: 'SIGKILL: a crash the others must detect',
    pause: 'SIGSTOP: frozen, its leases lapse',
    resume: 'SIGCONT: thaw a paused node',
    start: 'start the node again as a new incarnation',
  };
  // Shown wherever the demo's pause button is met when the store is SQLite (issue 15, item 3).
  const SQLITE_PAUSE_WARNING =
    "On SQLite, a paused process that holds the database's write lock stops every node's writes until it resumes (docs/PROVIDERS.md).";

  const state = {
    cluster: null,
    agents: null,
    queues: null,
    demo: null,
    demoMode: undefined, // undefined: not known yet, true: /api/demo answers, false: 404
    events: null,
    locks: null,
    schedules: null,
    dead: null, // {queue, messages}
    deadError: null,
    deadQueue: null,
    deadQueueChosen: false,
    chartQueue: null,
    history: new Map(), // queue name -> [{t, pending, inflight, oldest}]
    fastError: null,
    slowError: null,
    lastOkAt: 0,
    expanded: new Set(), // dead letter ids shown in full
    showDead: new Set(), // node names whose dead incarnations are unfolded
    seenEvents: null,
  };

  const $ = (id) => document.getElementById(id);
  const model = globalThis.TenureConsoleModel; // model.js: the pure decisions

  // ---------------------------------------------------------------- DOM helpers

  function h(tag, props, ...children) {
    const el = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v == null || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = String(v);
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    for (const c of children.flat(Infinity)) {
      if (c == null || c === false) continue;
      el.append(c instanceof Node ? c : String(c));
    }
    return el;
  }

  function setText(el, text) {
    const s = text == null ? '' : String(text);
    if (el.textContent !== s) el.textContent = s;
  }

  function setAttr(el, name, value) {
    if (value == null || value === false) {
      if (el.hasAttribute(name)) el.removeAttribute(name);
    } else {
      const s = value === true ? '' : String(value);
      if (el.getAttribute(name) !== s) el.setAttribute(name, s);
    }
  }

  function setClass(el, cls) {
    if (el.className !== cls) el.className = cls;
  }

  /** Rebuilds el's children only when sig changed (keeps focus and hover otherwise). */
  function fillIfChanged(el, sig, build) {
    if (el._sig === sig) return;
    el._sig = sig;
    el.replaceChildren(...[build()].flat(Infinity).filter((c) => c != null && c !== false));
  }

  /** Keyed update of container's children: existing elements are updated in place. */
  function reconcile(container, items, keyOf, create, update) {
    const old = new Map();
    for (const el of container.children) old.set(el._key, el);
    let prev = null;
    for (const item of items) {
      const key = String(keyOf(item));
      let el = old.get(key);
      if (el) old.delete(key);
      else {
        el = create(item);
        el._key = key;
      }
      update(el, item);
      const want = prev ? prev.nextElementSibling : container.firstElementChild;
      if (want !== el) container.insertBefore(el, want);
      prev = el;
    }
    for (const el of old.values()) el.remove();
  }

  // ---------------------------------------------------------------- formatting

  function fmtAge(ms) {
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

  function fmtSpan(ms) {
    const s = Math.round(ms / 1000);
    return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
  }

  function fmtNum(n) {
    if (n == null || !Number.isFinite(Number(n))) return '—';
    return Number(n).toLocaleString('en-US');
  }

  function fmtRate(r) {
    if (r == null || !Number.isFinite(Number(r))) return '—';
    const v = Number(r);
    return v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US');
  }

  function parseTime(iso) {
    if (!iso) return null;
    const t = Date.parse(iso);
    return Number.isFinite(t) ? t : null;
  }

  function fmtClock(iso, millis = true) {
    const t = parseTime(iso);
    if (t == null) return iso ? String(iso) : '—';
    const s = new Date(t).toISOString(); // always UTC, like the database clock
    return millis ? s.slice(11, 23) : s.slice(11, 19);
  }

  function fmtDate(iso) {
    const t = parseTime(iso);
    return t == null ? '' : new Date(t).toISOString().slice(0, 10);
  }

  /** Age of an instant relative to the database clock of the last cluster poll. */
  function ageOf(iso) {
    const t = parseTime(iso);
    const now = parseTime(state.cluster?.now);
    if (t == null || now == null) return null;
    return now - t;
  }

  function truncate(s, n) {
    const str = s == null ? '' : String(s);
    return str.length > n ? `${str.slice(0, n - 1)}…` : str;
  }

  function lower(s) {
    return String(s ?? '').toLowerCase().replace(/[^a-z0-9_-]/g, '');
  }

  function shortId(id) {
    return id ? String(id).slice(0, 8) : '';
  }

  // ---------------------------------------------------------------- HTTP

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
  function takeTokenFromFragment() {
    const match = location.hash.match(/(?:^#|&)token=([^&]+)/);
    if (!match) return;
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }

  async function getJson(path, { allow404 = false } = {}) {
    const res = await authorized('GET', path, undefined, READ_TIMEOUT_MS);
    if (allow404 && res.status === 404) return null;
    if (!res.ok) throw new HttpError(`GET ${path}: ${errorText(res)}`, res.status, res.data);
    if (res.data == null || typeof res.data !== 'object') {
      throw new HttpError(`GET ${path}: the answer is not JSON`, res.status, null);
    }
    return res.data;
  }

  /** POST; on 401 asks for a bearer token, keeps it for the session and retries. */
  async function postJson(path, body) {
    const res = await authorized('POST', path, body, ACTION_TIMEOUT_MS);
    if (!res.ok) throw new HttpError(errorText(res), res.status, res.data);
    return res.data ?? {};
  }

  const enc = encodeURIComponent;

  // ---------------------------------------------------------------- toasts

  function toast(message, kind = 'ok') {
    const box = $('toasts');
    const el = h(
      'div',
      { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
      h('span', { class: 'toast-kind', text: kind === 'error' ? 'failed' : 'done' }),
      h('span', { class: 'toast-msg', text: message }),
      h('button', { type: 'button', class: 'toast-close', 'aria-label': 'dismiss', text: '×', onclick: () => el.remove() }),
    );
    box.append(el);
    while (box.children.length > 5) box.firstElementChild.remove();
    setTimeout(() => el.remove(), kind === 'error' ? 9000 : 5000);
  }

  /** Runs a mutating call from a button: disables it meanwhile, toasts the outcome, refreshes. */
  async function act(button, label, call, describe) {
    if (button) button.disabled = true;
    try {
      const result = await call();
      toast(describe ? describe(result) : `${label}: done`, 'ok');
    } catch (e) {
      toast(`${label}: ${e.message}`, 'error');
    } finally {
      if (button && button.isConnected) button.disabled = false;
      refreshNow();
    }
  }

  // ---------------------------------------------------------------- polling

  let fastBusy = false;
  let slowBusy = false;
  let fastAgain = false;
  let slowAgain = false;

  async function fastTick(forced = false) {
    if (fastBusy) {
      if (forced) fastAgain = true;
      return; // never overlap: skip this tick
    }
    fastBusy = true;
    try {
      // The chosen queue's dead letters are read with the queue counts and rendered with them, so
      // the dead-letter count and the rows listed always come from the same poll (issue 15, item 15).
      const deadQueue = state.deadQueue;
      const askDemo = state.demoMode !== false;
      const [c, a, q, dl, d] = await Promise.allSettled([
        getJson('api/cluster'),
        getJson('api/agents'),
        getJson('api/queues'),
        // 404: the queue has no messages at all (it exists while it has some), so no dead letters
        deadQueue ? getJson(`api/queues/${enc(deadQueue)}/dead?limit=${DEAD_LIMIT}`, { allow404: true }) : Promise.resolve(null),
        askDemo ? getJson('api/demo', { allow404: true }) : Promise.resolve(null),
      ]);
      const errors = [];
      if (c.status === 'fulfilled') state.cluster = c.value;
      else errors.push(c.reason.message);
      if (a.status === 'fulfilled') state.agents = a.value;
      else errors.push(a.reason.message);
      if (q.status === 'fulfilled') {
        state.queues = q.value;
        sampleQueues(q.value);
      } else errors.push(q.reason.message);
      if (deadQueue && deadQueue === state.deadQueue) {
        if (dl.status === 'fulfilled') {
          state.dead = { queue: deadQueue, messages: dl.value?.messages ?? [] };
          state.deadError = null;
        } else state.deadError = dl.reason.message;
      }
      if (askDemo) {
        if (d.status === 'fulfilled') {
          state.demo = d.value;
          state.demoMode = d.value != null;
        } else if (state.demoMode) {
          errors.push(d.reason.message); // known demo went away: keep the last state, say so
        }
      }
      state.fastError = errors.length ? joinErrors(errors) : null;
      if (!errors.length) state.lastOkAt = Date.now();
      renderFast();
    } finally {
      fastBusy = false;
      renderLive();
      if (fastAgain) {
        fastAgain = false;
        setTimeout(() => fastTick(true), 0);
      }
    }
  }

  async function slowTick(forced = false) {
    if (slowBusy) {
      if (forced) slowAgain = true;
      return;
    }
    slowBusy = true;
    try {
      const [e, l, s] = await Promise.allSettled([
        getJson(`api/events?limit=${EVENT_LIMIT}`),
        getJson('api/locks'),
        getJson('api/schedules'),
      ]);
      if (e.status === 'fulfilled') state.events = e.value;
      if (l.status === 'fulfilled') state.locks = l.value;
      if (s.status === 'fulfilled') state.schedules = s.value;
      const failed = [e, l, s].filter((r) => r.status === 'rejected').map((r) => r.reason.message);
      state.slowError = failed.length ? joinErrors(failed) : null;
      renderEvents();
      renderLocks();
      renderSchedules();
    } finally {
      slowBusy = false;
      renderLive();
      if (slowAgain) {
        slowAgain = false;
        setTimeout(() => slowTick(true), 0);
      }
    }
  }

  /** "GET a: x", "GET b: x" -> "GET a, b: x": one failure cause is usually shared by every poll. */
  function joinErrors(list) {
    const byCause = new Map();
    for (const e of list) {
      const m = /^(GET|POST) (\S+): ([\s\S]*)$/.exec(e);
      const [what, cause] = m ? [m[2], m[3]] : ['', e];
      if (!byCause.has(cause)) byCause.set(cause, []);
      if (what) byCause.get(cause).push(what);
    }
    return [...byCause].map(([cause, paths]) => (paths.length ? `GET ${paths.join(', ')}: ${cause}` : cause)).join(' · ');
  }

  function refreshNow() {
    fastTick(true);
    slowTick(true);
  }

  function sampleQueues(data) {
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

  // ---------------------------------------------------------------- header and liveness

  function renderHeader() {
    const c = state.cluster;
    if (!c) return;
    const leader = c.leader;
    const nameEl = $('leader-name');
    if (leader) {
      setText(nameEl, `♛ ${leader.name ?? shortId(leader.nodeId)}`);
      setClass(nameEl, 'leader-name');
      setText($('leader-epoch'), `epoch ${leader.epoch}`);
      const left = parseTime(leader.expiresAt) != null ? -ageOf(leader.expiresAt) : null;
      setText($('leader-expiry'), left == null ? '' : left >= 0 ? `lease ${fmtAge(left)} left` : `lease expired ${fmtAge(-left)} ago`);
    } else {
      setText(nameEl, 'no leader');
      setClass(nameEl, 'leader-name leader-none');
      setText($('leader-epoch'), '');
      setText($('leader-expiry'), 'no lease held');
    }
    const store = c.store ?? {};
    setText($('store-provider'), store.provider ?? '?');
    setText($('store-location'), store.location ?? '');
    setAttr($('store-location'), 'title', store.location ?? null);
    setText($('store-prefix'), store.prefix ? `table prefix ${store.prefix}` : '');
    setText($('db-clock'), `${fmtClock(c.now)} UTC`);
    setText($('db-date'), fmtDate(c.now));
    if (c.self) {
      setText($('self-name'), c.self.name ?? shortId(c.self.nodeId));
      setText($('self-sub'), `node ${shortId(c.self.nodeId)}`);
    } else {
      setText($('self-name'), state.demoMode ? 'demo supervisor' : 'not a node');
      setText($('self-sub'), 'agent actions go to the leader');
    }
  }

  function renderLive() {
    const live = $('live');
    const err = state.fastError || state.slowError;
    const banner = $('stale-banner');
    if (!state.lastOkAt && !err) {
      setClass(live, 'live live-pending');
      setText($('live-text'), 'connecting…');
      return;
    }
    if (err) {
      setClass(live, 'live live-stale');
      setText($('live-text'), 'stale');
      const since = state.lastOkAt ? `last good poll ${fmtAge(Date.now() - state.lastOkAt)} ago` : 'no good poll yet';
      setText($('live-sub'), since);
      setAttr(live, 'title', err);
      banner.hidden = false;
      setText(banner, `Polling failed (${since}): ${err}`);
      document.body.classList.add('is-stale');
    } else {
      setClass(live, 'live live-ok');
      setText($('live-text'), 'live');
      setText($('live-sub'), `polled ${fmtAge(Date.now() - state.lastOkAt)} ago`);
      setAttr(live, 'title', null);
      banner.hidden = true;
      document.body.classList.remove('is-stale');
    }
  }

  // ---------------------------------------------------------------- nodes

  function demoNode(name) {
    if (!state.demoMode || !state.demo) return null;
    return (state.demo.nodes ?? []).find((n) => n.name === name) ?? null;
  }

  /** Whether the store is SQLite, where pausing a process can stop every node's writes. */
  function onSqlite() {
    const provider = String(state.cluster?.store?.provider ?? '').toLowerCase();
    return provider === 'sqlite' || /^sqlite:/i.test(String(state.demo?.store ?? ''));
  }

  function demoButton(action, name, procState, compact) {
    const enabled = DEMO_RULES[action](procState);
    const warn = action === 'pause' && onSqlite();
    return h('button', {
      type: 'button',
      class: `btn btn-demo btn-demo-${action}${compact ? ' btn-xs' : ''}${warn ? ' has-warning' : ''}`,
      'data-demo-action': action,
      'data-demo-node': name,
      title: warn ? `${DEMO_TITLES[action]}.\n${SQLITE_PAUSE_WARNING}` : DEMO_TITLES[action],
      disabled: !enabled,
      text: warn ? `${action} ⚠` : action,
      onclick: (ev) => demoAction(ev.currentTarget, name, action),
    });
  }

  function demoAction(button, name, action) {
    const warn = action === 'pause' && onSqlite();
    act(
      button,
      `${action} ${name}`,
      () => postJson(`api/demo/nodes/${enc(name)}/${enc(action)}`),
      (r) => `${action} ${r.name ?? name}: now ${r.state ?? 'done'}${warn ? `. ${SQLITE_PAUSE_WARNING}` : ''}`,
    );
  }

  function createNodeCard() {
    const p = {};
    const el = h(
      'article',
      { class: 'node-card' },
      h(
        'div',
        { class: 'node-top' },
        (p.name = h('h3', { class: 'node-name' })),
        (p.crown = h('span', { class: 'badge badge-leader', text: '♛ leader', hidden: true })),
        h('span', { class: 'spacer' }),
        (p.status = h('span', { class: 'status' })),
      ),
      (p.older = h('p', { class: 'node-older', hidden: true })),
      h(
        'dl',
        { class: 'kv' },
        (p.incDt = h('dt', { text: 'incarnation', hidden: true })),
        (p.inc = h('dd', { class: 'mono', hidden: true })),
        h('dt', { text: 'heartbeat' }),
        (p.hb = h('dd', { class: 'hb' })),
        h('dt', { text: 'agents' }),
        (p.agents = h('dd', { class: 'num-l' })),
        h('dt', { text: 'up' }),
        (p.up = h('dd')),
        h('dt', { text: 'caps' }),
        (p.caps = h('dd', { class: 'caps' })),
        h('dt', { text: 'address' }),
        (p.addr = h('dd', { class: 'mono addr' })),
        (p.selfDt = h('dt', { text: 'console', hidden: true })),
        (p.selfDd = h('dd', { class: 'self-dd', text: 'served by this node', hidden: true })),
      ),
      (p.proc = h('div', { class: 'node-proc' })),
    );
    el._p = p;
    return el;
  }

  /** role: 'current' (the name's live incarnation), 'older' (another live one) or 'dead'. */
  function updateNodeCard(el, n, role, incarnations) {
    const p = el._p;
    const status = String(n.status ?? 'UNKNOWN');
    setAttr(el, 'data-node', n.name ?? '');
    setAttr(el, 'data-node-id', n.nodeId ?? '');
    setAttr(el, 'data-status', status);
    setAttr(el, 'data-incarnation', role);
    const isLeader = n.leader === true || (n.leader == null && state.cluster?.leader?.nodeId === n.nodeId);
    setAttr(el, 'data-leader', isLeader ? 'true' : null);
    const isSelf = state.cluster?.self?.nodeId != null && state.cluster.self.nodeId === n.nodeId;
    setClass(el, `node-card st-${lower(status)}${isLeader ? ' is-leader' : ''}${isSelf ? ' is-self' : ''}${role === 'current' ? '' : ` is-${role}`}`);
    p.selfDt.hidden = p.selfDd.hidden = !isSelf;
    setText(p.name, n.name ?? shortId(n.nodeId));
    setAttr(p.name, 'title', `node id ${n.nodeId ?? '?'}`);
    // With several incarnations under one name, the id tells them apart.
    p.incDt.hidden = p.inc.hidden = incarnations < 2;
    setText(p.inc, incarnations > 1 ? `#${shortId(n.nodeId)}` : '');
    setAttr(p.inc, 'title', incarnations > 1 ? `node id ${n.nodeId}` : null);
    p.older.hidden = role !== 'older';
    setText(p.older, role === 'older' ? 'an older incarnation: still a member until the leader declares it dead' : '');
    p.crown.hidden = !isLeader;
    setAttr(p.crown, 'title', isLeader && state.cluster?.leader ? `leader, epoch ${state.cluster.leader.epoch}` : null);
    setText(p.status, status);
    setClass(p.status, `status status-${lower(status)}`);

    const age = n.heartbeatAgeMs ?? ageOf(n.heartbeatAt);
    const level = age == null ? '' : age > HEARTBEAT_BAD_MS ? 'bad' : age > HEARTBEAT_WARN_MS ? 'warn' : 'ok';
    const word = level === 'bad' ? ' · late' : level === 'warn' ? ' · slow' : '';
    const gone = status === 'DEAD';
    setText(p.hb, gone ? `last ${fmtAge(age)} ago` : `${fmtAge(age)}${word}`);
    setClass(p.hb, `hb hb-${gone ? 'gone' : level}`);
    setAttr(p.hb, 'title', n.heartbeatAt ? `last heartbeat ${n.heartbeatAt}` : null);
    setText(p.agents, fmtNum(n.agents ?? 0));
    // A dead incarnation ran from its start to its last heartbeat; "up" would keep growing.
    const up = gone ? parseTime(n.heartbeatAt) - parseTime(n.startedAt) : ageOf(n.startedAt);
    setText(p.up, up == null || !Number.isFinite(up) ? '—' : gone ? `ran ${fmtAge(up)}` : fmtAge(up));
    setAttr(p.up, 'title', n.startedAt ? `started ${n.startedAt}` : null);
    const caps = n.capabilities ?? [];
    fillIfChanged(p.caps, JSON.stringify(caps), () =>
      caps.length ? caps.map((c) => h('span', { class: 'cap', text: c })) : h('span', { class: 'muted', text: 'none' }),
    );
    fillIfChanged(p.addr, n.address ?? '', () => {
      const a = n.address;
      if (!a) return h('span', { class: 'muted', text: '—' });
      if (!/^https?:\/\//i.test(a)) return h('span', { text: a });
      // Addresses are advertised with or without a final "/"; joinUrl takes either.
      return [
        h('a', { href: a, target: '_blank', rel: 'noopener', title: a, text: a.replace(/^https?:\/\//i, '').replace(/\/+$/, '') }),
        ' · ',
        h('a', { href: model.joinUrl(a, 'metrics'), target: '_blank', rel: 'noopener', 'data-metrics-link': '', text: 'metrics' }),
      ];
    });

    // Demo processes are per name: only the name's current incarnation gets the controls.
    const dn = role === 'current' ? demoNode(n.name) : null;
    const procState = dn?.state ?? '';
    fillIfChanged(p.proc, dn ? `${procState}|${dn.pid}|${onSqlite()}` : '', () => {
      if (!dn) return [];
      return [
        h('span', { class: 'proc-label', text: 'process' }),
        h('span', { class: `proc proc-${lower(procState)}`, text: procState, title: 'demo process state' }),
        dn.pid != null ? h('span', { class: 'hsub mono', text: `pid ${dn.pid}` }) : null,
        h('span', { class: 'spacer' }),
        h(
          'span',
          { class: 'proc-btns' },
          procState === 'stopped' || procState === 'killed'
            ? demoButton('start', n.name, procState, true)
            : [
                demoButton('stop', n.name, procState, true),
                demoButton('kill', n.name, procState, true),
                procState === 'paused' ? demoButton('resume', n.name, procState, true) : demoButton('pause', n.name, procState, true),
              ],
        ),
      ];
    });
    p.proc.hidden = !dn;
  }

  // One group per node name: its current incarnation, other live ones, and the dead ones collapsed
  // behind a toggle (they stay in the table until cleanup, SPEC §3.7).
  function createNodeGroup(g) {
    const p = {};
    const el = h(
      'div',
      { class: 'node-group' },
      (p.cards = h('div', { class: 'node-cards' })),
      (p.history = h(
        'div',
        { class: 'node-history' },
        (p.toggle = h('button', { type: 'button', class: 'btn btn-xs btn-ghost history-toggle', 'aria-expanded': 'false' })),
        (p.dead = h('div', { class: 'node-cards history-cards', hidden: true })),
      )),
    );
    p.toggle.addEventListener('click', () => {
      const name = el._key;
      if (state.showDead.has(name)) state.showDead.delete(name);
      else state.showDead.add(name);
      renderNodes();
    });
    el._p = p;
    return el;
  }

  function updateNodeGroup(el, g) {
    const p = el._p;
    const count = 1 + g.older.length + g.dead.length;
    setAttr(el, 'data-node-group', g.name);
    reconcile(
      p.cards,
      [g.current, ...g.older],
      (n) => n.nodeId ?? n.name,
      createNodeCard,
      (card, n) => updateNodeCard(card, n, n === g.current ? 'current' : 'older', count),
    );
    p.history.hidden = g.dead.length === 0;
    const open = state.showDead.has(g.name) && g.dead.length > 0;
    p.dead.hidden = !open;
    const what = `${g.dead.length} dead incarnation${g.dead.length === 1 ? '' : 's'}`;
    setText(p.toggle, open ? `▾ hide ${what}` : `▸ ${what}`);
    setAttr(p.toggle, 'aria-expanded', open ? 'true' : 'false');
    setAttr(p.toggle, 'data-incarnations-toggle', g.name);
    setAttr(p.toggle, 'title', open ? null : `earlier processes named ${g.name}; the leader deletes them after a while`);
    reconcile(p.dead, g.dead, (n) => n.nodeId ?? n.name, createNodeCard, (card, n) => updateNodeCard(card, n, 'dead', count));
  }

  function renderNodes() {
    const c = state.cluster;
    if (!c) return;
    const nodes = c.nodes ?? [];
    const groups = model.nodeGroups(nodes);
    for (const name of state.showDead) if (!groups.some((g) => g.name === name && g.dead.length)) state.showDead.delete(name);
    reconcile($('nodes'), groups, (g) => g.name, createNodeGroup, updateNodeGroup);
    $('nodes-empty').hidden = nodes.length > 0;
    const counts = {};
    for (const g of groups) counts[g.current.status] = (counts[g.current.status] ?? 0) + 1;
    const hidden = groups.reduce((k, g) => k + g.dead.length, 0);
    setText(
      $('nodes-meta'),
      [
        ...Object.entries(counts).map(([s, k]) => `${k} ${String(s).toLowerCase()}`),
        hidden ? `${hidden} dead incarnation${hidden === 1 ? '' : 's'}` : null,
      ]
        .filter(Boolean)
        .join(' · '),
    );
    const paused = onSqlite() && state.demoMode ? (state.demo?.nodes ?? []).filter((n) => n.state === 'paused').map((n) => n.name) : [];
    $('nodes-warning').hidden = paused.length === 0;
    setText($('nodes-warning'), paused.length ? `${paused.join(', ')} ${paused.length === 1 ? 'is' : 'are'} paused. ${SQLITE_PAUSE_WARNING}` : '');
  }

  // ---------------------------------------------------------------- agents

  const UNASSIGNED = '\u0000unassigned';

  function nodesById() {
    return new Map((state.cluster?.nodes ?? []).map((n) => [n.nodeId, n]));
  }

  /** Settled agents under their owner's name; every other one (moving, or running nowhere) apart. */
  function agentGroups() {
    const agents = state.agents?.agents ?? [];
    const byId = nodesById();
    const groups = new Map();
    for (const g of model.nodeGroups(state.cluster?.nodes ?? [])) {
      groups.set(g.name, { key: g.name, title: g.name, node: g.current, agents: [] });
    }
    const loose = { key: UNASSIGNED, title: 'unassigned / moving', node: null, agents: [] };
    for (const a of agents) {
      const owner = byId.get(a.owner);
      if (model.agentState(a, byId) !== 'settled') loose.agents.push(a);
      else groups.get(owner.name ?? owner.nodeId).agents.push(a);
    }
    return [...groups.values(), loose];
  }

  function createAgentGroup(g) {
    const p = {};
    const el = h(
      'section',
      { class: 'agent-group' },
      h(
        'div',
        { class: 'group-head' },
        (p.title = h('h3', { class: 'group-title' })),
        (p.status = h('span', { class: 'status status-sm' })),
        h('span', { class: 'spacer' }),
        (p.count = h('span', { class: 'group-count' })),
      ),
      (p.chips = h('div', { class: 'chips' })),
      (p.empty = h('p', { class: 'empty small', text: 'no agents' })),
    );
    el._p = p;
    return el;
  }

  function updateAgentGroup(el, g) {
    const p = el._p;
    const isLoose = g.key === UNASSIGNED;
    const isLeader = g.node && (g.node.leader === true || state.cluster?.leader?.nodeId === g.node.nodeId);
    setText(p.title, `${isLeader ? '♛ ' : ''}${g.title}`);
    const status = g.node?.status ?? (isLoose ? '' : 'not in cluster');
    p.status.hidden = !status;
    setText(p.status, status);
    setClass(p.status, `status status-sm status-${lower(status || 'unknown')}`);
    setText(p.count, `${g.agents.length}`);
    setAttr(p.count, 'title', `${g.agents.length} agent${g.agents.length === 1 ? '' : 's'}`);
    setAttr(el, 'data-group', isLoose ? 'unassigned' : g.key);
    setClass(el, `agent-group${isLoose ? ' group-loose' : ''}${isLoose && g.agents.length ? ' has-handoffs' : ''}`);
    p.empty.hidden = g.agents.length > 0;
    setText(p.empty, isLoose ? 'none: every agent is settled' : 'no agents');
    reconcile(p.chips, g.agents, (a) => a.uri, createAgentChip, updateAgentChip);
  }

  function familyHue(family) {
    let x = 0;
    for (const ch of String(family ?? '')) x = (x * 31 + ch.codePointAt(0)) % 360;
    return x;
  }

  function createAgentChip() {
    const p = {};
    const el = h(
      'div',
      { class: 'agent-chip' },
      h('div', { class: 'chip-top' }, (p.uri = h('span', { class: 'chip-uri mono' })), (p.epoch = h('span', { class: 'chip-epoch mono' }))),
      (p.flags = h('div', { class: 'chip-flags' })),
      (p.actions = h(
        'div',
        { class: 'chip-actions' },
        (p.pause = h('button', { type: 'button', class: 'btn btn-xs', onclick: () => agentPauseToggle(el) })),
        (p.pin = h('select', { class: 'pin-select', 'aria-label': 'pin to node', 'data-agent-pin': '', onchange: () => agentPin(el) })),
      )),
    );
    el._p = p;
    return el;
  }

  function updateAgentChip(el, a) {
    const p = el._p;
    el._agent = a;
    const byId = nodesById();
    const st = model.agentState(a, byId);
    const moving = st === 'handoff' || st === 'stopping';
    setAttr(el, 'data-agent', a.uri);
    setAttr(el, 'data-owner', a.ownerName ?? '');
    setAttr(el, 'data-owner-id', a.owner ?? '');
    setAttr(el, 'data-target-id', a.target ?? '');
    setAttr(el, 'data-agent-state', st);
    setAttr(el, 'data-handoff', st === 'handoff' ? 'true' : null);
    setClass(
      el,
      `agent-chip${a.paused ? ' is-paused' : ''}${moving ? ' is-handoff' : ''}${st === 'orphan' ? ' is-orphan' : ''}${a.pinnedTo ? ' is-pinned' : ''}`,
    );
    el.style.setProperty('--fam-hue', String(familyHue(a.family)));
    setText(p.uri, a.uri);
    setText(p.epoch, `e${a.epoch ?? '?'}`);
    setAttr(p.epoch, 'title', `agent epoch ${a.epoch ?? '?'}`);
    const owner = a.ownerName ?? (a.owner ? shortId(a.owner) : null);
    const target = a.targetName ?? (a.target ? shortId(a.target) : null);
    const leaderless = !state.cluster?.leader;
    const older = st === 'settled' && model.nodeGroups(state.cluster?.nodes ?? []).some((g) => g.older.some((n) => n.nodeId === a.owner));
    const sig = JSON.stringify([st, a.paused, a.pinnedTo, owner, target, leaderless, older]);
    fillIfChanged(p.flags, sig, () => {
      const out = [];
      const waiting = leaderless ? 'no leader to place it yet' : 'waiting for the leader';
      if (st === 'handoff') out.push(h('span', { class: 'flag flag-handoff', text: `⇄ ${owner} → ${target}` }));
      else if (st === 'stopping') out.push(h('span', { class: 'flag flag-handoff', text: `stopping on ${owner} · then ${waiting}` }));
      else if (st === 'claiming') out.push(h('span', { class: 'flag flag-claiming', text: `unassigned → ${target}` }));
      else if (st === 'orphan') out.push(h('span', { class: 'flag flag-unassigned', text: `unassigned · ${waiting}` }));
      if (older) out.push(h('span', { class: 'flag flag-older', text: `on an older ${owner}` }));
      if (a.paused) out.push(h('span', { class: 'flag flag-paused', text: '‖ paused' }));
      if (a.pinnedTo) out.push(h('span', { class: 'flag flag-pinned', text: `pinned → ${a.pinnedTo}` }));
      return out;
    });
    setAttr(el, 'title', `${a.uri}\n${agentExplanation(a, st, byId)}\nfamily ${a.family ?? '?'} · epoch ${a.epoch ?? '?'}`);
    p.flags.hidden = p.flags.childElementCount === 0;

    // A node acts itself; a server that is not a node forwards agent actions to the leader.
    const canAct = state.cluster != null;
    p.actions.hidden = !canAct;
    if (!canAct) return;
    setText(p.pause, a.paused ? 'resume' : 'pause');
    setAttr(p.pause, 'data-agent-action', a.paused ? 'resume' : 'pause');
    setAttr(p.pause, 'aria-label', `${a.paused ? 'resume' : 'pause'} ${a.uri}`);
    const names = [...new Set((state.cluster?.nodes ?? []).map((n) => n.name).filter(Boolean))];
    if (a.pinnedTo && !names.includes(a.pinnedTo)) names.push(a.pinnedTo);
    fillIfChanged(p.pin, JSON.stringify(names), () => [
      h('option', { value: '', text: 'not pinned' }),
      ...names.map((n) => h('option', { value: n, text: `pin → ${n}` })),
    ]);
    if (document.activeElement !== p.pin && !p.pin.disabled) p.pin.value = a.pinnedTo ?? '';
  }

  /** One sentence for the chip's tooltip: where the agent runs, and what happens next. */
  function agentExplanation(a, st, byId) {
    const name = (id) => {
      const n = byId.get(id);
      return n ? `${n.name ?? '?'} (#${shortId(id)}, ${String(n.status).toLowerCase()})` : `#${shortId(id)} (no longer a member)`;
    };
    const owner = a.owner ? name(a.owner) : 'nobody';
    const target = a.target ? name(a.target) : 'none';
    switch (st) {
      case 'settled':
        return `runs on ${owner}`;
      case 'handoff':
        return `moving: ${owner} stops it, then ${target} claims it`;
      case 'stopping':
        return `${owner} stops it; its target ${target} has left, so the leader places it again`;
      case 'claiming':
        return `runs nowhere; ${target} claims it next${a.owner ? ` (its owner ${owner} has gone)` : ''}`;
      case 'paused':
        return 'paused: runs nowhere until resumed';
      default:
        return `runs nowhere: its target ${target} is not an active node, so it waits for the leader to place it${a.owner ? ` (its owner ${owner} has gone)` : ''}`;
    }
  }

  function agentPauseToggle(chip) {
    const a = chip._agent;
    const action = a.paused ? 'resume' : 'pause';
    act(
      chip._p.pause,
      `${action} ${a.uri}`,
      () => postJson(`api/agents/${action}`, { uri: a.uri }),
      (r) => `${r.uri ?? a.uri}: ${r.paused ? 'paused (runs nowhere)' : 'resumed'}`,
    );
  }

  function agentPin(chip) {
    const a = chip._agent;
    const node = chip._p.pin.value || null;
    const select = chip._p.pin;
    select.blur();
    act(
      select,
      node ? `pin ${a.uri} to ${node}` : `unpin ${a.uri}`,
      () => postJson('api/agents/pin', { uri: a.uri, node }),
      (r) => (r.pinnedTo ? `${r.uri ?? a.uri}: pinned to ${r.pinnedTo}` : `${r.uri ?? a.uri}: not pinned`),
    );
  }

  function renderAgents() {
    if (!state.agents || !state.cluster) return;
    const agents = state.agents.agents ?? [];
    const canAct = true; // see updateAgentChip: actions work on every server
    $('rebalance').hidden = !canAct;
    $('agents-readonly').hidden = canAct;
    reconcile($('agent-groups'), agentGroups(), (g) => g.key, createAgentGroup, updateAgentGroup);
    $('agents-empty').hidden = agents.length > 0;
    const byId = nodesById();
    const states = agents.map((a) => model.agentState(a, byId));
    const count = (...which) => states.filter((st) => which.includes(st)).length;
    const moving = count('handoff', 'stopping', 'claiming');
    const waiting = count('orphan');
    const paused = agents.filter((a) => a.paused).length;
    setText(
      $('agents-meta'),
      [
        `${agents.length} agents`,
        moving ? `${moving} handing off` : null,
        waiting ? `${waiting} waiting for the leader` : null,
        paused ? `${paused} paused` : null,
      ]
        .filter(Boolean)
        .join(' · '),
    );
  }

  // ---------------------------------------------------------------- queues and charts

  function createQueueRow() {
    const p = {};
    const cell = (cls) => h('td', { class: cls });
    const el = h(
      'tr',
      { class: 'queue-row', tabindex: '0' },
      (p.name = cell('mono qname')),
      (p.pending = cell('num')),
      (p.inflight = cell('num')),
      (p.dead = cell('num')),
      (p.oldest = cell('num')),
      (p.rate = cell('num')),
      (p.consumers = cell('num')),
    );
    for (const k of ['pending', 'inflight', 'oldest']) {
      p[`${k}V`] = h('span', { class: 'cell-v' });
      p[`${k}S`] = h('canvas', { class: 'spark', width: '72', height: '18', 'aria-hidden': 'true' });
      p[k].append(p[`${k}S`], p[`${k}V`]);
    }
    const choose = () => {
      state.chartQueue = el._key;
      renderQueues();
    };
    el.addEventListener('click', choose);
    el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        choose();
      }
    });
    el._p = p;
    return el;
  }

  function updateQueueRow(el, q) {
    const p = el._p;
    setAttr(el, 'data-queue', q.name);
    setClass(el, `queue-row${state.chartQueue === q.name ? ' is-selected' : ''}${deadCountOf(q) > 0 ? ' has-dead' : ''}`);
    setAttr(el, 'aria-current', state.chartQueue === q.name ? 'true' : null);
    setAttr(el, 'title', 'click to chart this queue');
    setText(p.name, q.name);
    setText(p.pendingV, fmtNum(q.pending));
    setText(p.inflightV, fmtNum(q.inflight));
    const dead = deadCountOf(q);
    setAttr(el, 'data-dead-count', String(dead));
    setText(p.dead, fmtNum(dead));
    setClass(p.dead, `num${dead > 0 ? ' v-bad' : ''}`);
    setText(p.oldestV, fmtAge(q.oldestPendingAgeMs));
    setClass(p.oldest, `num${q.oldestPendingAgeMs > 60000 ? ' v-bad' : q.oldestPendingAgeMs > 5000 ? ' v-warn' : ''}`);
    setText(p.rate, fmtRate(q.handledPerSecond));
    const cons = q.consumers ?? [];
    setText(p.consumers, cons.length ? String(cons.length) : '—');
    setAttr(
      p.consumers,
      'title',
      cons.length
        ? cons
            .map((c) => `${shortId(c.nodeId)}: handled ${c.handled}, retried ${c.retried}, dead-lettered ${c.deadLettered}, lost claims ${c.lostClaims}, outcomes not written ${c.unwritten ?? 0}, in flight ${c.inflight}`)
            .join('\n')
        : 'no consumer on the node serving this console',
    );
    const ring = state.history.get(q.name) ?? [];
    drawChart(p.pendingS, ring, 'pending', colors.depth, { spark: true });
    drawChart(p.inflightS, ring, 'inflight', colors.inflight, { spark: true });
    drawChart(p.oldestS, ring, 'oldest', colors.oldest, { spark: true });
  }

  function renderQueues() {
    if (!state.queues) return;
    const queues = state.queues.queues ?? [];
    const names = queues.map((q) => q.name);
    if (!names.includes(state.chartQueue)) state.chartQueue = null;
    if (!state.chartQueue) {
      // Start with the busiest queue; it stays until the operator picks another or it disappears.
      const load = (q) => (q.pending ?? 0) + (q.inflight ?? 0);
      state.chartQueue = [...queues].sort((a, b) => load(b) - load(a))[0]?.name ?? null;
    }
    reconcile($('queues'), queues, (q) => q.name, createQueueRow, updateQueueRow);
    $('queues-empty').hidden = queues.length > 0;
    const total = queues.reduce((s, q) => s + (q.pending ?? 0), 0);
    const dead = queues.reduce((s, q) => s + deadCountOf(q), 0);
    setText($('queues-meta'), `${queues.length} queues · ${fmtNum(total)} pending · ${fmtNum(dead)} dead`);

    const charts = $('queue-charts');
    charts.hidden = !state.chartQueue;
    if (state.chartQueue) {
      const ring = state.history.get(state.chartQueue) ?? [];
      const last = ring[ring.length - 1];
      setText($('chart-queue'), state.chartQueue);
      setText($('chart-v-depth'), last ? fmtNum(last.pending) : '');
      setText($('chart-v-inflight'), last ? fmtNum(last.inflight) : '');
      setText($('chart-v-oldest'), last ? fmtAge(last.oldest) : '');
      drawChart($('chart-depth'), ring, 'pending', colors.depth, { fmt: fmtNum });
      drawChart($('chart-inflight'), ring, 'inflight', colors.inflight, { fmt: fmtNum });
      drawChart($('chart-oldest'), ring, 'oldest', colors.oldest, { fmt: fmtAge });
    }
    syncDeadQueue(queues);
  }

  const colors = {};
  function loadColors() {
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
  function drawChart(canvas, samples, key, color, { spark = false, fmt = String } = {}) {
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

  // ---------------------------------------------------------------- dead letters

  function syncDeadQueue(queues) {
    const names = queues.map((q) => q.name);
    const before = state.deadQueue;
    const tabs = [...queues];
    if (state.deadQueue && !names.includes(state.deadQueue)) {
      // A queue exists while it has messages: one the operator chose (and maybe just purged) stays
      // chosen, empty, until another is picked, rather than the panel jumping to another queue.
      if (state.deadQueueChosen) tabs.push({ name: state.deadQueue, dead: 0 });
      else state.deadQueue = null;
    }
    if (!state.deadQueueChosen) {
      const current = queues.find((q) => q.name === state.deadQueue);
      if (!current || !(current.dead > 0)) {
        const withDead = queues.find((q) => q.dead > 0);
        state.deadQueue = withDead?.name ?? current?.name ?? names[0] ?? null;
      }
    }
    reconcile($('dead-tabs'), tabs, (q) => q.name, createDeadTab, updateDeadTab);
    if (state.deadQueue !== before) {
      state.dead = null;
      state.expanded.clear();
      renderDead();
      fastTick(true);
    }
  }

  /** A queue's dead-letter count: the same number in the table, the tab, the note and the buttons. */
  function deadCountOf(q) {
    return model.deadCount(q, state.dead && state.dead.queue === q.name ? state.dead.messages : null, DEAD_LIMIT);
  }

  function createDeadTab(q) {
    const p = {};
    const el = h(
      'button',
      { type: 'button', class: 'tab', role: 'tab' },
      (p.name = h('span', { class: 'mono' })),
      (p.count = h('span', { class: 'tab-count' })),
    );
    el.addEventListener('click', () => {
      state.deadQueue = q.name;
      state.deadQueueChosen = true;
      state.dead = null;
      state.expanded.clear();
      renderQueues();
      renderDead();
      fastTick(true);
    });
    el._p = p;
    return el;
  }

  function updateDeadTab(el, q) {
    const selected = state.deadQueue === q.name;
    const dead = deadCountOf(q);
    setAttr(el, 'data-dead-tab', q.name);
    setAttr(el, 'data-dead-count', String(dead));
    setAttr(el, 'aria-selected', selected ? 'true' : 'false');
    setClass(el, `tab${selected ? ' is-selected' : ''}${dead > 0 ? ' has-dead' : ''}`);
    setText(el._p.name, q.name);
    setText(el._p.count, fmtNum(dead));
    setAttr(el._p.count, 'aria-label', `${dead} dead`);
  }

  function createDeadRow() {
    const p = {};
    const el = h(
      'tr',
      { class: 'dead-row' },
      (p.id = h('td', { class: 'num mono' })),
      (p.key = h('td', { class: 'mono dl-key' })),
      (p.attempts = h('td', { class: 'num' })),
      (p.error = h(
        'td',
        { class: 'dl-error' },
        (p.errorText = h('span', { class: 'clip dl-message' })),
        (p.detail = h(
          'div',
          { class: 'dl-detail', hidden: true },
          (p.errorLabel = h('div', { class: 'dl-label' })),
          (p.fullError = h('pre', { class: 'dl-pre dl-pre-error' })),
          (p.payloadLabel = h('div', { class: 'dl-label' })),
          (p.fullPayload = h('pre', { class: 'dl-pre' })),
          (p.times = h('div', { class: 'dl-label' })),
        )),
      )),
      (p.finished = h('td', { class: 'mono dl-time' })),
      (p.payload = h('td', { class: 'dl-payload' }, (p.payloadText = h('span', { class: 'clip mono' })))),
      h(
        'td',
        { class: 'dl-actions' },
        (p.expand = h('button', { type: 'button', class: 'btn btn-xs btn-ghost', 'aria-expanded': 'false' })),
        (p.replay = h('button', { type: 'button', class: 'btn btn-xs', text: 'replay' })),
      ),
    );
    p.expand.addEventListener('click', () => {
      const id = el._msg.id;
      if (state.expanded.has(id)) state.expanded.delete(id);
      else state.expanded.add(id);
      updateDeadRow(el, el._msg);
    });
    p.replay.addEventListener('click', () => replayOne(el));
    el._p = p;
    return el;
  }

  function updateDeadRow(el, m) {
    const p = el._p;
    el._msg = m;
    const open = state.expanded.has(m.id);
    setAttr(el, 'data-dead-id', String(m.id));
    setAttr(el, 'data-dead-queue', state.dead?.queue ?? '');
    setClass(el, `dead-row${open ? ' is-open' : ''}`);
    setText(p.id, m.id);
    setText(p.key, m.key ?? '—');
    setText(p.attempts, m.maxAttempts != null ? `${m.attempts}/${m.maxAttempts}` : `${m.attempts ?? '?'}`);
    const error = model.splitError(m.error);
    setText(p.errorText, error.message || error.simpleName);
    setAttr(p.error, 'data-error-class', error.className || null);
    setAttr(p.error, 'title', open ? null : m.error ?? null);
    // Opened, the error cell spans error, finished and payload and shows everything in full.
    p.errorText.hidden = open;
    p.detail.hidden = !open;
    p.finished.hidden = open;
    p.payload.hidden = open;
    if (p.error.colSpan !== (open ? 3 : 1)) p.error.colSpan = open ? 3 : 1;
    if (open) {
      setText(p.errorLabel, error.className ? `error · ${error.className}` : 'error');
      setText(p.fullError, error.message || error.simpleName || '(no error text)');
      setText(p.payloadLabel, `payload · ${m.contentType ?? 'no content type'} · ${m.payloadEncoding ?? 'utf-8'} (first 4 KiB)`);
      setText(p.fullPayload, prettyPayload(m));
      setText(p.times, `created ${m.createdAt ?? '?'} · finished ${m.finishedAt ?? '?'} · attempts ${m.attempts ?? '?'}/${m.maxAttempts ?? '?'}`);
    }
    const age = ageOf(m.finishedAt);
    setText(p.finished, `${fmtClock(m.finishedAt, false)}${age != null ? ` · ${fmtAge(age)} ago` : ''}`);
    setAttr(p.finished, 'title', m.finishedAt ? `finished ${m.finishedAt}\ncreated ${m.createdAt ?? '?'}` : null);
    const encoding = m.payloadEncoding && m.payloadEncoding !== 'utf-8' ? `[${m.payloadEncoding}] ` : '';
    const meta = m.contentType ? `${m.contentType}${encoding ? `, ${m.payloadEncoding}` : ''}` : m.payloadEncoding ?? '';
    setText(p.payloadText, `${encoding}${m.payload ?? ''}`);
    setAttr(p.payload, 'title', open ? null : `${meta}\n${m.payload ?? ''}`);
    setText(p.expand, open ? '▾ less' : '▸ more');
    setAttr(p.expand, 'aria-expanded', open ? 'true' : 'false');
    setAttr(p.expand, 'aria-label', `${open ? 'collapse' : 'expand'} message ${m.id}`);
    setAttr(p.replay, 'data-replay', String(m.id));
    setAttr(p.replay, 'aria-label', `replay message ${m.id}`);
  }

  function prettyPayload(m) {
    const raw = m.payload ?? '';
    if (!/json/i.test(m.contentType ?? '') || (m.payloadEncoding && m.payloadEncoding !== 'utf-8')) return raw;
    try {
      return JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      return raw; // cut at 4 KiB, or not JSON after all
    }
  }

  function replayOne(row) {
    const m = row._msg;
    const queue = state.dead?.queue;
    if (!queue) return;
    act(
      row._p.replay,
      `replay message ${m.id}`,
      async () => {
        const r = await postJson(`api/queues/${enc(queue)}/dead/${enc(m.id)}/replay`);
        if (state.dead && state.dead.queue === queue) {
          state.dead.messages = state.dead.messages.filter((x) => x.id !== m.id);
          renderDead();
        }
        return r;
      },
      (r) => `message ${m.id} of ${queue}: replayed ${r.replayed ?? 1}`,
    );
  }

  function replayAll(button) {
    const queue = state.deadQueue;
    if (!queue) return;
    act(button, `replay all of ${queue}`, () => postJson(`api/queues/${enc(queue)}/dead/replay`), (r) => `${queue}: replayed ${fmtNum(r.replayed ?? 0)} dead letters`);
  }

  function purgeAll(button) {
    const queue = state.deadQueue;
    if (!queue) return;
    const q = (state.queues?.queues ?? []).find((x) => x.name === queue);
    const n = q ? deadCountOf(q) : state.dead?.messages?.length ?? 0;
    if (!window.confirm(`Purge all ${fmtNum(n)} dead letters of queue "${queue}"?\n\nThey are deleted for good; this cannot be undone.`)) return;
    act(button, `purge ${queue}`, () => postJson(`api/queues/${enc(queue)}/dead/purge`), (r) => `${queue}: purged ${fmtNum(r.purged ?? 0)} dead letters`);
  }

  function renderDead() {
    const queue = state.deadQueue;
    const msgs = state.dead && state.dead.queue === queue ? state.dead.messages : [];
    reconcile($('dead-rows'), msgs, (m) => m.id, createDeadRow, updateDeadRow);
    const q = (state.queues?.queues ?? []).find((x) => x.name === queue) ?? (queue ? { name: queue, dead: 0 } : null);
    const total = q ? deadCountOf(q) : msgs.length;
    $('replay-all').disabled = !queue || total === 0;
    $('purge-all').disabled = !queue || total === 0;
    setText($('replay-all'), total ? `replay all (${fmtNum(total)})` : 'replay all');
    let note = '';
    if (!queue) note = 'No queues.';
    else if (state.deadError) note = `Could not load dead letters of ${queue}: ${state.deadError}`;
    else if (state.dead == null) note = `Loading dead letters of ${queue}…`;
    else if (msgs.length) {
      note = `${queue}: ${fmtNum(total)} dead, oldest first${total > msgs.length ? `, showing the first ${msgs.length}` : ''}.`;
    }
    setText($('dead-status'), note);
    setClass($('dead-status'), `panel-note${state.deadError ? ' v-bad' : ''}`);
    $('dead-empty-body').hidden = msgs.length > 0;
    setText($('dead-empty'), queue && state.dead ? `No dead letters in ${queue}.` : '—');
  }

  // ---------------------------------------------------------------- events

  function eventTone(kind) {
    const k = String(kind ?? '').toUpperCase();
    if (/FENC|DEAD|EXPIR|LOST|FAIL|CRASH|ERROR|EVICT/.test(k)) return 'bad';
    if (/LEADER/.test(k)) return 'leader';
    if (/LEAV|LEFT|STOP|RELEAS|HAND|PAUS|REVOK|SKIP/.test(k)) return 'warn';
    if (/JOIN|ACTIV|START|ACQUIR|CLAIM|RESUM/.test(k)) return 'ok';
    if (/AGENT|ASSIGN|PIN|REBALANC/.test(k)) return 'agent';
    if (/QUEUE|REPLAY|PURGE|MESSAGE/.test(k)) return 'queue';
    return 'plain';
  }

  function createEvent() {
    const p = {};
    const el = h(
      'li',
      { class: 'event' },
      h(
        'div',
        { class: 'ev-top' },
        (p.time = h('time', { class: 'ev-time mono' })),
        (p.kind = h('span', { class: 'ev-kind' })),
        (p.node = h('span', { class: 'ev-node' })),
        h('span', { class: 'spacer' }),
        (p.epoch = h('span', { class: 'ev-epoch mono' })),
      ),
      (p.detail = h('div', { class: 'ev-detail' })),
    );
    el._p = p;
    return el;
  }

  function updateEvent(el, e) {
    const p = el._p;
    setAttr(el, 'data-event-kind', e.kind ?? '');
    if (!el.classList.contains('event')) el.classList.add('event');
    setText(p.time, fmtClock(e.at));
    setAttr(p.time, 'datetime', e.at ?? null);
    const age = ageOf(e.at);
    setAttr(p.time, 'title', `${e.at ?? ''}${age != null ? ` (${fmtAge(age)} ago)` : ''}`);
    setText(p.kind, e.kind ?? '?');
    setClass(p.kind, `ev-kind tone-${eventTone(e.kind)}`);
    setText(p.node, e.nodeName ?? (e.nodeId ? shortId(e.nodeId) : ''));
    setText(p.epoch, e.epoch != null ? `epoch ${e.epoch}` : '');
    setText(p.detail, e.detail ?? '');
    p.detail.hidden = !e.detail;
  }

  function renderEvents() {
    if (!state.events) return;
    const all = state.events.events ?? [];
    const f = $('events-filter').value.trim().toLowerCase();
    const shown = f
      ? all.filter((e) => [e.kind, e.nodeName, e.detail, e.epoch].some((v) => v != null && String(v).toLowerCase().includes(f)))
      : all;
    const first = state.seenEvents == null;
    const seen = state.seenEvents ?? new Set();
    reconcile(
      $('events'),
      shown,
      (e) => e.id ?? `${e.at}|${e.kind}|${e.nodeId}`,
      (e) => {
        const el = createEvent();
        const id = e.id ?? `${e.at}|${e.kind}|${e.nodeId}`;
        if (!first && !seen.has(id)) el.classList.add('is-new');
        return el;
      },
      updateEvent,
    );
    state.seenEvents = new Set(all.map((e) => e.id ?? `${e.at}|${e.kind}|${e.nodeId}`));
    $('events-empty').hidden = shown.length > 0;
    setText($('events-empty'), all.length ? 'No event matches the filter.' : 'No events.');
    setText($('events-meta'), f ? `${shown.length} of ${all.length}` : `last ${all.length}`);
  }

  // ---------------------------------------------------------------- schedules

  function createScheduleRow() {
    const p = {};
    const el = h(
      'tr',
      {},
      (p.name = h('td', { class: 'mono' })),
      (p.when = h('td', { class: 'mono' })),
      (p.queue = h('td', { class: 'mono' })),
      (p.next = h('td', { class: 'num' })),
      (p.last = h('td', { class: 'num' })),
      (p.fired = h('td', { class: 'num mono' })),
      h(
        'td',
        { class: 'actions' },
        (p.pause = h('button', { type: 'button', class: 'btn', 'data-schedule-action': 'pause' })),
        (p.trigger = h('button', { type: 'button', class: 'btn', 'data-schedule-action': 'trigger' }, 'trigger now')),
      ),
    );
    p.pause.addEventListener('click', () => scheduleAction(el, el._schedule.paused ? 'resume' : 'pause'));
    p.trigger.addEventListener('click', () => scheduleAction(el, 'trigger'));
    el._p = p;
    return el;
  }

  function updateScheduleRow(el, s) {
    el._schedule = s;
    setAttr(el, 'data-schedule', s.name);
    const p = el._p;
    setText(p.name, s.name);
    setText(p.when, s.zone ? `${s.when} ${s.zone}` : s.when);
    setAttr(p.when, 'title', `missed slots: ${s.missedSlots}; while paused: ${lower(s.whilePaused)}`);
    setText(p.queue, s.queue);
    setText(p.next, s.paused ? 'paused' : s.nextFireInMs <= 0 ? 'due' : `in ${fmtAge(s.nextFireInMs)}`);
    setClass(p.next, s.paused ? 'num schedule-paused' : 'num');
    setAttr(p.next, 'title', s.nextFireAt);
    setText(p.last, s.lastFireAt ? `${fmtAge(ageOf(s.lastFireAt))} ago` : '—');
    setAttr(p.last, 'title', s.lastMessageId == null ? '' : `message ${s.lastMessageId}`);
    setText(p.fired, s.skipped ? `${fmtNum(s.fired)} / ${fmtNum(s.skipped)}` : fmtNum(s.fired));
    setText(p.pause, s.paused ? 'resume' : 'pause');
  }

  function scheduleAction(row, action) {
    const s = row._schedule;
    act(
      action === 'trigger' ? row._p.trigger : row._p.pause,
      `${action} ${s.name}`,
      () => postJson(`api/schedules/${encodeURIComponent(s.name)}/${action}`, {}),
      (r) =>
        action === 'trigger'
          ? `${s.name}: message ${r.id} enqueued`
          : `${s.name}: ${r.changed ? `${action}d` : `already ${action === 'pause' ? 'paused' : 'running'}`}`,
    );
  }

  function renderSchedules() {
    if (!state.schedules) return;
    const schedules = state.schedules.schedules ?? [];
    reconcile($('schedules'), schedules, (s) => s.name, createScheduleRow, updateScheduleRow);
    $('schedules-empty').hidden = schedules.length > 0;
    const paused = schedules.filter((s) => s.paused).length;
    setText($('schedules-meta'), paused ? `${schedules.length} · ${paused} paused` : `${schedules.length}`);
  }

  // ---------------------------------------------------------------- locks

  function createLockRow() {
    const p = {};
    const el = h(
      'tr',
      {},
      (p.name = h('td', { class: 'mono' })),
      (p.state = h('td')),
      (p.holder = h('td', { class: 'mono' })),
      (p.token = h('td', { class: 'num mono' })),
      (p.expires = h('td', { class: 'num' })),
    );
    el._p = p;
    return el;
  }

  function updateLockRow(el, lock) {
    setAttr(el, 'data-lock', lock.name);
    setAttr(el, 'data-lock-token', String(lock.token));
    const p = el._p;
    setText(p.name, lock.name);
    setText(p.state, lower(lock.state));
    setClass(p.state, `lock-${lower(lock.state)}`);
    setText(p.holder, lock.holder ?? '—');
    setText(p.token, fmtNum(lock.token));
    setText(p.expires, lock.state === 'FREE' ? '—' : fmtAge(lock.expiresInMs));
    setAttr(p.expires, 'title', lock.expiresAt);
  }

  function renderLocks() {
    if (!state.locks) return;
    const locks = state.locks.locks ?? [];
    reconcile($('locks'), locks, (l) => l.name, createLockRow, updateLockRow);
    $('locks-empty').hidden = locks.length > 0;
    const held = locks.filter((l) => l.state === 'HELD').length;
    setText($('locks-meta'), `${held} held of ${locks.length}`);
  }

  // ---------------------------------------------------------------- demo

  function createDemoRow() {
    const p = {};
    const el = h(
      'tr',
      { class: 'demo-row' },
      h('td', {}, (p.name = h('span', { class: 'demo-name' })), (p.pid = h('span', { class: 'hsub mono' }))),
      h('td', {}, (p.state = h('span', { class: 'proc' }))),
      (p.actions = h('td', { class: 'demo-actions' })),
    );
    el._p = p;
    return el;
  }

  function updateDemoRow(el, n) {
    const p = el._p;
    setAttr(el, 'data-demo-row', n.name);
    setText(p.name, n.name);
    setText(p.pid, n.pid != null ? ` pid ${n.pid}` : '');
    setAttr(p.name, 'title', n.http ?? null);
    setText(p.state, n.state ?? '?');
    setClass(p.state, `proc proc-${lower(n.state)}`);
    fillIfChanged(p.actions, `${n.name}|${n.state}|${onSqlite()}`, () => Object.keys(DEMO_RULES).map((a) => demoButton(a, n.name, n.state, true)));
  }

  function renderDemo() {
    const panel = $('panel-demo');
    const on = state.demoMode === true && state.demo != null;
    panel.hidden = !on;
    document.body.classList.toggle('demo-mode', on);
    if (!on) return;
    const d = state.demo;
    setText($('demo-store'), d.store ?? '');
    $('demo-sqlite-warning').hidden = !onSqlite();
    setText($('demo-sqlite-warning'), onSqlite() ? `⚠ pause: ${SQLITE_PAUSE_WARNING}` : '');
    const w = d.workload ?? {};
    setText($('wl-enqueued'), fmtNum(w.enqueued));
    setText($('wl-handled'), fmtNum(w.handled));
    setText($('wl-dead'), fmtNum(w.dead));
    setText($('wl-duplicates'), fmtNum(w.duplicates));
    $('wl-dead').parentElement.classList.toggle('tile-warn', w.dead > 0);
    $('wl-duplicates').parentElement.classList.toggle('tile-bad', w.duplicates > 0);
    reconcile($('demo-nodes'), d.nodes ?? [], (n) => n.name, createDemoRow, updateDemoRow);
  }

  // ---------------------------------------------------------------- wiring

  function renderFast() {
    renderHeader();
    renderDemo(); // before nodes: node cards read the demo state
    renderNodes();
    renderAgents();
    renderQueues();
    renderDead();
  }

  function start() {
    takeTokenFromFragment();
    loadColors();
    $('rebalance').addEventListener('click', (ev) =>
      act(ev.currentTarget, 'rebalance', () => postJson('api/agents/rebalance'), (r) => (r.rebalanced ? 'rebalance requested' : 'rebalance: nothing to do')),
    );
    $('replay-all').addEventListener('click', (ev) => replayAll(ev.currentTarget));
    $('purge-all').addEventListener('click', (ev) => purgeAll(ev.currentTarget));
    $('events-filter').addEventListener('input', renderEvents);
    window.addEventListener('resize', () => renderQueues());
    fastTick();
    slowTick();
    setInterval(fastTick, FAST_MS);
    setInterval(slowTick, SLOW_MS);
    setInterval(renderLive, 500);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
