// Tenure web console: the Dead letters panel: the chosen queue's rows, replay and purge.
import { postJson, enc } from './api.js';
import { $, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtClock, fmtNum } from './format.js';
import * as model from './model.js';
import { ageOf, deadCountOf, state } from './state.js';
import { act } from './toast.js';

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

export function replayAll(button) {
  const queue = state.deadQueue;
  if (!queue) return;
  act(button, `replay all of ${queue}`, () => postJson(`api/queues/${enc(queue)}/dead/replay`), (r) => `${queue}: replayed ${fmtNum(r.replayed ?? 0)} dead letters`);
}

export function purgeAll(button) {
  const queue = state.deadQueue;
  if (!queue) return;
  const q = (state.queues?.queues ?? []).find((x) => x.name === queue);
  const n = q ? deadCountOf(q) : state.dead?.messages?.length ?? 0;
  if (!window.confirm(`Purge all ${fmtNum(n)} dead letters of queue "${queue}"?\n\nThey are deleted for good; this cannot be undone.`)) return;
  act(button, `purge ${queue}`, () => postJson(`api/queues/${enc(queue)}/dead/purge`), (r) => `${queue}: purged ${fmtNum(r.purged ?? 0)} dead letters`);
}

export function renderDead() {
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
