// Tenure web console: plain ES2022 modules, no framework, no build step (contract:
// docs/ADMIN-API.md). This one wires the page: which views each poll renders, and the panel
// buttons that are there from the start. One module per panel, so a panel can change without
// reading the others.
import { postJson, takeTokenFromFragment } from './api.js';
import { $ } from './dom.js';
import { loadColors } from './charts.js';
import { startPolling } from './poll.js';
import { act } from './toast.js';
import { renderHeader, renderLive } from './header.js';
import { renderDemo } from './demo.js';
import { renderNodes } from './nodes.js';
import { renderAgents } from './agents.js';
import { renderQueues } from './queues.js';
import { purgeAll, renderDead, replayAll } from './dead.js';
import { renderMessages, wireMessages } from './messages.js';
import { renderEvents } from './events.js';
import { renderLocks } from './locks.js';
import { renderSchedules } from './schedules.js';

function renderFast() {
  renderHeader();
  renderDemo(); // before nodes: node cards read the demo state
  renderNodes();
  renderAgents();
  renderQueues();
  renderDead();
  renderMessages();
}

function renderSlow() {
  renderEvents();
  renderLocks();
  renderSchedules();
}

function start() {
  takeTokenFromFragment();
  loadColors();
  $('rebalance').addEventListener('click', (ev) =>
    act(ev.currentTarget, 'rebalance', () => postJson('api/agents/rebalance'), (r) => (r.rebalanced ? 'rebalance requested' : 'rebalance: nothing to do')),
  );
  $('replay-all').addEventListener('click', (ev) => replayAll(ev.currentTarget));
  $('purge-all').addEventListener('click', (ev) => purgeAll(ev.currentTarget));
  $('events-filter').addEventListener('input', renderEvents);
  wireMessages();
  window.addEventListener('resize', () => renderQueues());
  startPolling({ fast: renderFast, slow: renderSlow, live: renderLive });
  setInterval(renderLive, 500);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
