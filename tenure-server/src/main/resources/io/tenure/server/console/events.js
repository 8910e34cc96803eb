// Tenure web console: the Events panel, newest first, with its filter.
import { $, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtClock, shortId } from './format.js';
import { ageOf, state } from './state.js';

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

export function renderEvents() {
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
