// Tenure web console: the demo's panel and process buttons, shown only where /api/demo answers
// (a `tenure demo` supervisor).
import { postJson, enc } from './api.js';
import { $, fillIfChanged, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtNum, lower } from './format.js';
import { state } from './state.js';
import { act } from './toast.js';

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
export const SQLITE_PAUSE_WARNING =
  "On SQLite, a paused process that holds the database's write lock stops every node's writes until it resumes (docs/PROVIDERS.md).";

export function demoNode(name) {
  if (!state.demoMode || !state.demo) return null;
  return (state.demo.nodes ?? []).find((n) => n.name === name) ?? null;
}

/** Whether the store is SQLite, where pausing a process can stop every node's writes. */
export function onSqlite() {
  const provider = String(state.cluster?.store?.provider ?? '').toLowerCase();
  return provider === 'sqlite' || /^sqlite:/i.test(String(state.demo?.store ?? ''));
}

export function demoButton(action, name, procState, compact) {
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

export function renderDemo() {
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
