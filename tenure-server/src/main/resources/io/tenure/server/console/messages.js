// Tenure web console: the Messages panel: one queue's messages of one status, filtered by key, group,
// error text and age, a page at a time, each with the actions its status allows (cancel, delete,
// run now, retry; SPEC §12.3, §12.7).
import { enc, postJson } from './api.js';
import { $, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtNum, shortId } from './format.js';
import * as model from './model.js';
import { ageOf, MESSAGES_LIMIT, messagesPath, state } from './state.js';
import { fastTick } from './poll.js';
import { act, toast } from './toast.js';

const ACTIONS = [
  ['cancel', 'cancel'],
  ['delete', 'delete'],
  ['run-now', 'run now'],
  ['retry', 'retry'],
];

const DONE_WORDS = { cancel: 'cancelled', delete: 'deleted', 'run-now': 'run now', retry: 'retried' };

const STATUS_WORDS = { PENDING: 'pending', INFLIGHT: 'in flight', DEAD: 'dead', CANCELLED: 'cancelled', DONE: 'done' };

function createMessageRow() {
  const p = {};
  const el = h(
    'tr',
    { class: 'msg-row' },
    (p.id = h('td', { class: 'num mono' })),
    h('td', {}, (p.status = h('span', { class: 'status status-sm' }))),
    (p.key = h('td', { class: 'mono msg-clip' })),
    (p.group = h('td', { class: 'mono msg-clip' })),
    (p.attempts = h('td', { class: 'num' })),
    (p.when = h('td', { class: 'msg-when' }, (p.available = h('div')), (p.created = h('div', { class: 'hsub' })))),
    (p.owner = h('td', { class: 'msg-when' }, (p.ownerName = h('div', { class: 'msg-clip' })), (p.lease = h('div', { class: 'hsub' })))),
    (p.progress = h('td', { class: 'msg-when' }, (p.progressValue = h('div', { class: 'mono' })), (p.progressNote = h('div', { class: 'hsub msg-clip' })))),
    (p.error = h('td', { class: 'msg-error' }, (p.errorText = h('span', { class: 'clip' })))),
    h('td', { class: 'msg-actions' }, (p.actions = h('div', { class: 'msg-buttons' }))),
  );
  p.buttons = {};
  for (const [action, label] of ACTIONS) {
    const button = h('button', { type: 'button', class: `btn btn-xs${action === 'delete' ? ' btn-danger' : ''}`, 'data-msg-action': action, text: label });
    button.addEventListener('click', () => runAction(el, action, button));
    p.buttons[action] = button;
    p.actions.append(button);
  }
  el._p = p;
  return el;
}

/** Node names by incarnation id, from the last cluster poll; an unknown owner shows its id. */
function ownerName(nodeId) {
  const node = (state.cluster?.nodes ?? []).find((n) => n.nodeId === nodeId);
  return node ? node.name : shortId(nodeId);
}

function updateMessageRow(el, m) {
  const p = el._p;
  el._msg = m;
  setAttr(el, 'data-msg-id', String(m.id));
  setAttr(el, 'data-msg-status', m.status);
  setAttr(el, 'data-msg-key', m.key ?? '');
  setText(p.id, m.id);
  setText(p.status, STATUS_WORDS[m.status] ?? m.status);
  setClass(p.status, `status status-sm status-${String(m.status).toLowerCase()}`);
  setText(p.key, m.key ?? '—');
  setAttr(p.key, 'title', m.key ?? null);
  setText(p.group, m.group ?? '—');
  setAttr(p.group, 'title', m.group ?? null);
  setText(p.attempts, m.maxAttempts != null ? `${m.attempts}/${m.maxAttempts}` : `${m.attempts ?? '?'}`);
  setText(p.available, availability(m));
  const created = ageOf(m.createdAt);
  setText(p.created, created != null ? `created ${fmtAge(created)} ago` : '');
  setAttr(p.when, 'title', `available ${m.availableAt ?? '?'}\ncreated ${m.createdAt ?? '?'}${m.finishedAt ? `\nfinished ${m.finishedAt}` : ''}`);
  const running = m.status === 'INFLIGHT';
  setText(p.ownerName, running && m.owner ? ownerName(m.owner) : '—');
  setAttr(p.ownerName, 'title', running ? m.owner ?? null : null);
  const leaseAge = running && m.leaseUntil ? ageOf(m.leaseUntil) : null;
  const lease = leaseAge == null ? null : -leaseAge;
  setText(p.lease, lease == null ? '' : lease >= 0 ? `lease ${fmtAge(lease)}` : `lease expired ${fmtAge(-lease)} ago`);
  setClass(p.lease, `hsub${lease != null && lease < 0 ? ' v-bad' : ''}`);
  setText(p.progressValue, m.progress == null ? '—' : `${Math.round(m.progress * 100)} %`);
  setText(p.progressNote, m.progressNote ?? '');
  setAttr(p.progress, 'title', m.progressNote ?? null);
  // The error's message, as the dead-letter panel shows it: the class is in the tooltip.
  const error = model.splitError(m.error);
  setText(p.errorText, error.message || error.simpleName || (m.error ? '' : '—'));
  setAttr(p.error, 'data-error-class', error.className || null);
  setAttr(p.error, 'title', m.error ?? null);
  const allowed = model.messageActions(m.status);
  for (const [action, label] of ACTIONS) {
    const button = p.buttons[action];
    button.disabled = !allowed[action];
    setAttr(button, 'aria-label', `${label} message ${m.id}`);
    setAttr(button, 'title', allowed[action] ? null : `a ${STATUS_WORDS[m.status] ?? m.status} message cannot be ${DONE_WORDS[action]}`);
  }
}

/** When a message may run: now, in some time (delayed or backing off), or when it finished. */
function availability(m) {
  if (m.status === 'PENDING') {
    const age = ageOf(m.availableAt);
    return age != null && age < 0 ? `available in ${fmtAge(-age)}` : 'available now';
  }
  if (m.status === 'INFLIGHT') return 'running';
  const finished = ageOf(m.finishedAt);
  return finished != null ? `finished ${fmtAge(finished)} ago` : '—';
}

function runAction(row, action, button) {
  const m = row._msg;
  if (action === 'delete' && !window.confirm(`Delete message ${m.id} of queue "${state.msgView.queue}" for good?\n\nThis cannot be undone.`)) return;
  act(button, `${action} message ${m.id}`, () => postJson(`api/messages/${enc(m.id)}/${action}`), (r) => model.actionOutcome(action, m.id, r));
}

/** Shows the messages of `queue` (a queue row's click), from the first page of the same filter. */
export function showMessagesOf(queue) {
  if (state.msgView.queue === queue) return;
  state.msgView.queue = queue;
  turnTo(0, []);
}

function turnTo(after, pages) {
  state.msgView.after = after;
  state.msgView.pages = pages;
  state.messages = null;
  state.messagesError = null;
  renderMessages();
  fastTick(true);
}

/** Reads the filter from the form; a bad age is refused with a toast and changes nothing. */
function applyFilter(ev) {
  ev?.preventDefault();
  let olderThanMs;
  try {
    olderThanMs = model.parseAge($('msg-age').value);
  } catch (e) {
    toast(e.message, 'error');
    return;
  }
  state.msgView.queue = $('msg-queue').value || null;
  state.msgView.filter = {
    status: $('msg-status').value,
    key: $('msg-key').value.trim(),
    group: $('msg-group').value.trim(),
    errorContains: $('msg-error').value,
    olderThanMs,
  };
  turnTo(0, []);
}

export function wireMessages() {
  $('msg-filter').addEventListener('submit', applyFilter);
  $('msg-queue').addEventListener('change', applyFilter);
  $('msg-status').addEventListener('change', applyFilter);
  $('msg-next').addEventListener('click', () => {
    const rows = currentRows();
    if (rows.length) turnTo(rows[rows.length - 1].id, [...state.msgView.pages, state.msgView.after]);
  });
  $('msg-prev').addEventListener('click', () => {
    const pages = [...state.msgView.pages];
    turnTo(pages.pop() ?? 0, pages);
  });
  $('msg-first').addEventListener('click', () => turnTo(0, []));
}

function currentRows() {
  return state.messages && state.messages.path === messagesPath() ? state.messages.messages : [];
}

/** The queue choice: every queue the page knows, and the chosen one even while it has none. */
function syncQueueChoice() {
  const names = (state.queues?.queues ?? []).map((q) => q.name);
  const v = state.msgView;
  if (!v.queue && (state.chartQueue || names.length)) v.queue = state.chartQueue ?? names[0];
  if (v.queue && !names.includes(v.queue)) names.push(v.queue);
  const select = $('msg-queue');
  reconcile(select, names, (n) => n, (n) => h('option', { value: n }), (el, n) => setText(el, n));
  if (select.value !== (v.queue ?? '')) select.value = v.queue ?? '';
}

export function renderMessages() {
  syncQueueChoice();
  const v = state.msgView;
  const rows = currentRows();
  reconcile($('msg-rows'), rows, (m) => m.id, createMessageRow, updateMessageRow);
  const words = v.filter.status ? STATUS_WORDS[v.filter.status] : 'any status';
  const page = v.pages.length + 1;
  let note = '';
  if (!v.queue) note = 'No queues.';
  else if (state.messagesError) note = `Could not load messages of ${v.queue}: ${state.messagesError}`;
  else if (state.messages?.path !== messagesPath()) note = `Loading ${words} messages of ${v.queue}…`;
  else if (rows.length) {
    note = `${v.queue}: ${fmtNum(rows.length)} ${words}, oldest first, page ${page}${rows.length === MESSAGES_LIMIT ? ' (there may be more)' : ''}.`;
  }
  setText($('messages-status'), note);
  setClass($('messages-status'), `panel-note${state.messagesError ? ' v-bad' : ''}`);
  setText($('messages-meta'), v.queue ? `${v.queue} · ${words} · page ${page}` : '');
  $('msg-empty-body').hidden = rows.length > 0;
  const none = `No ${v.filter.status ? `${words} ` : ''}messages in ${v.queue} match${page > 1 ? ' after the previous page' : ''}.`;
  setText($('msg-empty'), v.queue && state.messages?.path === messagesPath() ? none : '—');
  $('msg-next').disabled = rows.length < MESSAGES_LIMIT;
  $('msg-prev').disabled = v.pages.length === 0;
  $('msg-first').disabled = v.pages.length === 0;
  setAttr($('msg-next'), 'data-after', rows.length ? String(rows[rows.length - 1].id) : null);
}
