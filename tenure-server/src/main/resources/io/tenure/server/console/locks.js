// Tenure web console: the Locks panel: each named lock, its holder and fencing token.
import { $, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtNum, lower } from './format.js';
import { state } from './state.js';

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

export function renderLocks() {
  if (!state.locks) return;
  const locks = state.locks.locks ?? [];
  reconcile($('locks'), locks, (l) => l.name, createLockRow, updateLockRow);
  $('locks-empty').hidden = locks.length > 0;
  const held = locks.filter((l) => l.state === 'HELD').length;
  setText($('locks-meta'), `${held} held of ${locks.length}`);
}
