// Tenure web console: the Queues panel with its charts, and the dead-letter panel's queue tabs (a
// tab is a queue, chosen here with the charted one); a row's click also lists its messages.
import { $, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtNum, fmtRate, shortId } from './format.js';
import { deadCountOf, state } from './state.js';
import { colors, drawChart } from './charts.js';
import { renderDead } from './dead.js';
import { showMessagesOf } from './messages.js';
import { fastTick } from './poll.js';
import { controlText, parseLimits } from './model.js';
import { enc, postJson } from './api.js';
import { act } from './toast.js';

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
    (p.control = cell('control')),
  );
  p.state = h('span', { class: 'queue-state' });
  p.pause = h('button', { type: 'button', class: 'btn btn-xs', 'data-queue-action': 'pause' });
  p.limits = h('button', { type: 'button', class: 'btn btn-xs', 'data-queue-action': 'limits' }, 'limits');
  p.pause.addEventListener('click', (ev) => {
    ev.stopPropagation();
    queuePauseToggle(el);
  });
  p.limits.addEventListener('click', (ev) => {
    ev.stopPropagation();
    queueLimits(el);
  });
  p.control.append(p.state, ' ', p.pause, ' ', p.limits);
  for (const k of ['pending', 'inflight', 'oldest']) {
    p[`${k}V`] = h('span', { class: 'cell-v' });
    p[`${k}S`] = h('canvas', { class: 'spark', width: '72', height: '18', 'aria-hidden': 'true' });
    p[k].append(p[`${k}S`], p[`${k}V`]);
  }
  const choose = () => {
    state.chartQueue = el._key;
    renderQueues();
    showMessagesOf(el._key);
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

function queuePauseToggle(el) {
  const q = el._queue;
  const action = q.paused ? 'resume' : 'pause';
  act(
    el._p.pause,
    `${action} queue ${q.name}`,
    () => postJson(`api/queues/${enc(q.name)}/${action}`, {}),
    (r) => `queue ${r.queue ?? q.name}: ${r.paused ? 'paused on every node' : 'resumed'}${r.changed ? '' : ' (it already was)'}`,
  );
}

/**
 * Asks for the queue's limits as 'in flight, per group, rate' (e.g. '20, 2, 100/1s'; a part left
 * empty or 0 is no limit; nothing at all lifts them) and sets them.
 */
function queueLimits(el) {
  const q = el._queue;
  const l = q.limits ?? {};
  const rate = l.rate ? `${l.rate.claims}/${l.rate.perMs}ms${l.rate.perGroup ? ' per group' : ''}` : '';
  const now = [l.maxInFlight || '', l.maxInFlightPerGroup || '', rate].join(', ').replace(/(, )+$/, '');
  const text = window.prompt(
    `Limits of queue ${q.name}, across the cluster:\nmax in flight, max in flight per group, rate (N/PERIOD, e.g. 100/1s; add "per group")\nLeave empty to lift them all.`,
    now,
  );
  if (text === null) return;
  let body;
  try {
    body = parseLimits(text);
  } catch (e) {
    act(el._p.limits, `limits of queue ${q.name}`, () => Promise.reject(e));
    return;
  }
  act(
    el._p.limits,
    `limits of queue ${q.name}`,
    () => postJson(`api/queues/${enc(q.name)}/limits`, body),
    (r) => `queue ${q.name}: ${controlText({ limits: r.limits }) || 'no limits'}`,
  );
}

function updateQueueRow(el, q) {
  const p = el._p;
  el._queue = q;
  setText(p.state, controlText(q));
  setClass(p.state, `queue-state${q.paused ? ' v-warn' : ''}`);
  setText(p.pause, q.paused ? 'resume' : 'pause');
  setAttr(p.pause, 'data-queue-action', q.paused ? 'resume' : 'pause');
  setAttr(p.pause, 'title', q.paused ? 'let every node claim again' : 'stop every node claiming; messages in flight finish');
  setAttr(el, 'data-queue', q.name);
  setClass(el, `queue-row${state.chartQueue === q.name ? ' is-selected' : ''}${deadCountOf(q) > 0 ? ' has-dead' : ''}`);
  setAttr(el, 'aria-current', state.chartQueue === q.name ? 'true' : null);
  setAttr(el, 'title', 'click to chart this queue and list its messages');
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
          .map((c) => `${shortId(c.nodeId)}: handled ${c.handled}, retried ${c.retried}, dead-lettered ${c.deadLettered}, lost claims ${c.lostClaims}, outcomes not written ${c.unwritten ?? 0}, timed out ${c.timedOut ?? 0}, in flight ${c.inflight}`)
          .join('\n')
      : 'no consumer on the node serving this console',
  );
  const ring = state.history.get(q.name) ?? [];
  drawChart(p.pendingS, ring, 'pending', colors.depth, { spark: true });
  drawChart(p.inflightS, ring, 'inflight', colors.inflight, { spark: true });
  drawChart(p.oldestS, ring, 'oldest', colors.oldest, { spark: true });
}

export function renderQueues() {
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

/** Which queue the dead-letter panel shows, and its tabs; a new choice reads that queue at once. */
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
