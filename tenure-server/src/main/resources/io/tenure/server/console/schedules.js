// Tenure web console: the Schedules panel, with pause, resume and trigger now.
import { postJson } from './api.js';
import { $, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtNum, lower } from './format.js';
import { ageOf, state } from './state.js';
import { act } from './toast.js';

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

export function renderSchedules() {
  if (!state.schedules) return;
  const schedules = state.schedules.schedules ?? [];
  reconcile($('schedules'), schedules, (s) => s.name, createScheduleRow, updateScheduleRow);
  $('schedules-empty').hidden = schedules.length > 0;
  const paused = schedules.filter((s) => s.paused).length;
  setText($('schedules-meta'), paused ? `${schedules.length} · ${paused} paused` : `${schedules.length}`);
}
