// Tenure web console: the Agents panel, agents grouped under the node that runs them, with pause
// and pin.
import { postJson } from './api.js';
import { $, fillIfChanged, h, reconcile, setAttr, setClass, setText } from './dom.js';
import { lower, shortId } from './format.js';
import * as model from './model.js';
import { state } from './state.js';
import { act } from './toast.js';

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

export function renderAgents() {
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
