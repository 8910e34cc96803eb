// Tenure web console: the Nodes panel, one card per incarnation, grouped by node name.
import { $, fillIfChanged, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtNum, lower, parseTime, shortId } from './format.js';
import * as model from './model.js';
import { ageOf, state } from './state.js';
import { SQLITE_PAUSE_WARNING, demoButton, demoNode, onSqlite } from './demo.js';

const HEARTBEAT_WARN_MS = 2000;
const HEARTBEAT_BAD_MS = 5000;

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
      (p.wakeDt = h('dt', { text: 'wake-ups', hidden: true })),
      (p.wakeDd = h('dd', { class: 'num-l wake-dd', hidden: true })),
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
  // Only this node's own numbers are known here: the other nodes' are on their own consoles.
  const w = isSelf ? state.cluster.self.wakeups : null;
  p.wakeDt.hidden = p.wakeDd.hidden = w == null;
  setText(p.wakeDd, w == null ? '' : w.enabled
    ? `${w.sent} sent, ${w.received} received, ${w.woken} woke a consumer, ${w.dropped} dropped`
    : `off (polling), ${w.sent} sent`);
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

export function renderNodes() {
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
