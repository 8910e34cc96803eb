// Tenure web console: the pure decisions behind what the page shows, from API snapshots only (no
// DOM, no I/O, no imports), so the browser test can check them case by case in Node.

/**
 * A node name's incarnations (SPEC §3: a new node id per process start). `current` is the newest
 * that is not DEAD, else the newest; `older` are the other live ones (e.g. a killed process not yet
 * declared dead), newest first; `dead` the DEAD ones, newest first, which the page collapses.
 * Groups are in natural name order, so a restarted node keeps its place.
 */
export function nodeGroups(nodes) {
  const byName = new Map();
  for (const n of nodes ?? []) {
    const name = n.name ?? n.nodeId ?? '?';
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name).push(n); // the API lists nodes in join order
  }
  const groups = [];
  for (const [name, all] of byName) {
    const live = all.filter((n) => n.status !== 'DEAD');
    const current = live.length ? live[live.length - 1] : all[all.length - 1];
    groups.push({
      name,
      current,
      older: live.filter((n) => n !== current).reverse(),
      dead: all.filter((n) => n.status === 'DEAD' && n !== current).reverse(),
    });
  }
  return groups.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

/**
 * Where an agent stands, from its row and the membership (SPEC §5.3). An owner runs the agent
 * while it is a member that is not DEAD; a target can claim it only while it is ACTIVE.
 *   settled   its owner runs it and is its target
 *   handoff   its owner runs it and is stopping it for a live target
 *   stopping  its owner is stopping it, but the target has left: then it waits for the leader
 *   claiming  nobody runs it; its live target claims it next
 *   orphan    nobody runs it and its target has left, or there is none: the leader must place it
 *   paused    nobody runs it because an operator paused it
 */
export function agentState(agent, nodesById) {
  const owner = agent.owner ? nodesById.get(agent.owner) : null;
  const target = agent.target ? nodesById.get(agent.target) : null;
  const ownerRuns = owner != null && owner.status !== 'DEAD';
  const targetLive = target != null && target.status === 'ACTIVE';
  if (ownerRuns) {
    if (agent.owner === agent.target) return 'settled';
    return targetLive ? 'handoff' : 'stopping';
  }
  if (agent.paused) return 'paused';
  return targetLive ? 'claiming' : 'orphan';
}

/**
 * A handler's failure as stored: Java's Throwable.toString(), "pkg.Class: message", or the class
 * alone. Text that does not start with a qualified class name (the store's "lease expired on
 * attempt 5 of 5") is all message.
 */
export function splitError(text) {
  const s = text == null ? '' : String(text);
  const m = /^((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)(?::[ \t]*([\s\S]*))?$/.exec(s);
  if (!m) return { className: '', simpleName: '', message: s };
  const className = m[1];
  const simpleName = className.slice(className.lastIndexOf('.') + 1).replace(/^.*\$(?=.)/, '');
  return { className, simpleName, message: m[2] ?? '' };
}

/**
 * A queue's dead-letter count as the page shows it. `listed` is the queue's dead-letter list read
 * in the same poll as the counts (or null): shorter than `limit` it is the whole set, so its length
 * is the count and the count always equals the rows shown; a full list shows the first `limit` of
 * the store's count.
 */
export function deadCount(queueStats, listed, limit) {
  const n = listed == null ? null : listed.length;
  if (n != null && n < limit) return n;
  return Math.max(queueStats?.dead ?? 0, n ?? 0);
}

/** `path` under a node's advertised address, whether or not the address ends in "/". */
export function joinUrl(address, path) {
  return new URL(String(path).replace(/^\/+/, ''), String(address).replace(/\/*$/, '/')).href;
}

/** A rate's period as the CLI writes it: 500ms, 1s, 2m, 1h. */
function period(ms) {
  if (ms % 3600000 === 0) return `${ms / 3600000}h`;
  if (ms % 60000 === 0) return `${ms / 60000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** A queue's control in a few words: paused, or its limits; '' when free. */
export function controlText(q) {
  const l = q.limits ?? {};
  const parts = [];
  if (l.maxInFlight > 0) parts.push(`≤${l.maxInFlight} in flight`);
  if (l.maxInFlightPerGroup > 0) parts.push(`≤${l.maxInFlightPerGroup}/group`);
  if (l.rate) parts.push(`${l.rate.claims}/${period(l.rate.perMs)}${l.rate.perGroup ? '/group' : ''}`);
  return [q.paused ? 'PAUSED' : null, ...parts].filter(Boolean).join(' · ');
}

/** '20, 2, 100/1s per group' as the API's limits body; throws naming what it cannot read. */
export function parseLimits(text) {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length > 3) throw new Error(`give at most three parts (in flight, per group, rate), got ${parts.length}`);
  const whole = (s, what) => {
    if (s === '' || s === undefined) return 0;
    if (!/^\d+$/.test(s)) throw new Error(`${what} must be a whole number, got '${s}'`);
    return Number(s);
  };
  const body = { maxInFlight: whole(parts[0], 'max in flight'), maxInFlightPerGroup: whole(parts[1], 'max in flight per group') };
  const rate = parts[2] ?? '';
  if (rate !== '') {
    const m = /^(\d+)\s*\/\s*(\d+)\s*(ms|s|m|h)(\s+per group)?$/.exec(rate);
    if (!m) throw new Error(`rate must be N/PERIOD such as 100/1s or 5/1m per group, got '${rate}'`);
    const unit = { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[3]];
    body.rate = { claims: Number(m[1]), perMs: Number(m[2]) * unit, perGroup: Boolean(m[4]) };
  }
  return body;
}

/**
 * Which actions a message's status allows (SPEC §12.3, §12.7), as the store decides them: cancel a
 * pending or running one, delete any that is not running, run a pending one now, retry a dead or
 * cancelled one. The buttons follow this; the store still decides, so a message that changed since
 * the last poll gets the store's refusal.
 */
export function messageActions(status) {
  return {
    cancel: status === 'PENDING' || status === 'INFLIGHT',
    delete: status != null && status !== 'INFLIGHT',
    'run-now': status === 'PENDING',
    retry: status === 'DEAD' || status === 'CANCELLED',
  };
}

/** The API's `olderThanMs` is a Java int: at most this many milliseconds (about 24.8 days). */
const MAX_AGE_MS = 2147483647;

/**
 * An age an operator types, as milliseconds: 500ms, 90s, 10m, 2h, 3d (a bare number is minutes);
 * '' is no age filter (null). Throws naming what it cannot read.
 */
export function parseAge(text) {
  const s = String(text ?? '').trim();
  if (s === '') return null;
  const m = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(s);
  if (!m) throw new Error(`older than must be a number with ms, s, m, h or d (10m, 2h), got '${s}'`);
  const ms = Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 }[m[2] ?? 'm'];
  if (ms > MAX_AGE_MS) throw new Error(`older than must be at most 24 days, got '${s}'`);
  return ms;
}

/**
 * The query of `GET /api/queues/{name}/messages` for a filter ({status, key, group, errorContains,
 * olderThanMs}) and a page (the ids after `after`, at most `limit`): only what is set, in a fixed
 * order.
 */
export function messagesQuery(filter, after, limit) {
  const q = new URLSearchParams();
  for (const name of ['status', 'key', 'group', 'errorContains']) {
    if (filter?.[name]) q.set(name, filter[name]);
  }
  if (filter?.olderThanMs != null) q.set('olderThanMs', String(filter.olderThanMs));
  if (after > 0) q.set('after', String(after));
  q.set('limit', String(limit));
  return q.toString();
}

/** What an action on one message did, from the API's answer, for its toast. */
export function actionOutcome(action, id, answer) {
  const r = answer ?? {};
  switch (action) {
    case 'cancel':
      return r.cancelled === 'RUNNING' ? `message ${id}: cancelled while running; its owner is told` : `message ${id}: cancelled`;
    case 'delete':
      return `message ${id}: deleted`;
    case 'run-now':
      return r.changed === false ? `message ${id}: was available already; nothing changed` : `message ${id}: available now`;
    case 'retry':
      return `message ${id}: pending again, attempts reset`;
    default:
      return `message ${id}: ${action} done`;
  }
}
