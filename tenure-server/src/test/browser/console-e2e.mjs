#!/usr/bin/env node
// End-to-end check of the web console against a running `tenure demo` (three nodes, a workload).
//
//   npm ci && node console-e2e.mjs http://127.0.0.1:8080/ /tmp/console-e2e.png
//
// First checks the console's pure decisions (model.js) case by case, then, in headless Chromium under
// a strict Content-Security-Policy: the SQLite pause warning, node metrics links, stopping the leader
// from the console (another leader, no agent left on it), orphaned agents shown as waiting for the
// leader, a killed and restarted node's dead incarnation folded under the live one (with its toggle),
// the dead-letter count always equal to the rows listed and each row showing the error's message, a
// replay; the Messages panel's dead list, a retry, a delete and a key filter; then saves full-page
// screenshots. Needs Chromium at /usr/bin/chromium (or CHROMIUM=/path);
// never downloads a browser. CONSOLE_SRC=DIR serves the console's files from DIR instead of the demo
// (to try console changes without rebuilding the jar). Exit 0 on success, 1 with a reason otherwise.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [baseUrl, screenshotPath] = process.argv.slice(2);
if (!baseUrl || !screenshotPath) {
  console.error('usage: node console-e2e.mjs <console base URL> <screenshot path>');
  process.exit(2);
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONSOLE_DIR = path.resolve(HERE, '../../main/resources/io/tenure/server/console');
const CONSOLE_SRC = process.env.CONSOLE_SRC || null;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// What the admin server sends (issue 15); imposed here when the server does not, so the check means
// the same before and after the header lands.
const STRICT_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'";
const START_TIMEOUT_MS = 30_000;
const FAILOVER_TIMEOUT_MS = 30_000;
const NODE_TIMEOUT_MS = 45_000;
const DEAD_LETTER_TIMEOUT_MS = 30_000;
const REPLAY_TIMEOUT_MS = 10_000;
const DEAD_LIMIT = 50; // state.js: the console asks for at most this many dead letters
const AGREE_MIN_MS = 10_000; // sample the dead-letter count at least this long...
const AGREE_MAX_MS = 40_000; // ...and until it has changed twice, or this long

class Failure extends Error {}

// ---------------------------------------------------------------- model.js, without a browser

/** model.js is an ES module that imports nothing; as a data: URL Node loads it as a module, with no package.json to say so. */
function loadModel() {
  const source = fs.readFileSync(path.join(CONSOLE_SRC ?? CONSOLE_DIR, 'model.js'));
  return import(`data:text/javascript;base64,${source.toString('base64')}`);
}

async function modelChecks() {
  const m = await loadModel();
  const problems = [];
  const expect = (what, got, want) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  const node = (id, name, status) => ({ nodeId: id, name, status });

  // incarnations: the live one is current, dead ones fold, a not-yet-declared-dead one stays apart
  const g1 = m.nodeGroups([node('a1', 'n-2', 'DEAD'), node('b1', 'n-10', 'ACTIVE'), node('a2', 'n-2', 'DEAD'), node('a3', 'n-2', 'ACTIVE')]);
  expect('groups in natural name order', g1.map((g) => g.name), ['n-2', 'n-10']);
  expect('current incarnation', g1[0].current.nodeId, 'a3');
  expect('dead incarnations, newest first', g1[0].dead.map((n) => n.nodeId), ['a2', 'a1']);
  const g2 = m.nodeGroups([node('a1', 'n-1', 'ACTIVE'), node('a2', 'n-1', 'JOINING')]);
  expect('a restarted process is current', [g2[0].current.nodeId, g2[0].older.map((n) => n.nodeId), g2[0].dead], ['a2', ['a1'], []]);
  const g3 = m.nodeGroups([node('a1', 'n-1', 'DEAD'), node('a2', 'n-1', 'DEAD')]);
  expect('all dead: the newest is current', [g3[0].current.nodeId, g3[0].dead.map((n) => n.nodeId)], ['a2', ['a1']]);

  // agents: only a live owner runs one; only an ACTIVE target claims one
  const byId = new Map([node('x', 'n-1', 'ACTIVE'), node('y', 'n-2', 'ACTIVE'), node('d', 'n-3', 'DEAD'), node('l', 'n-4', 'LEAVING')].map((n) => [n.nodeId, n]));
  const cases = [
    [{ owner: 'x', target: 'x' }, 'settled'],
    [{ owner: 'l', target: 'l' }, 'settled'],
    [{ owner: 'x', target: 'y' }, 'handoff'],
    [{ owner: 'x', target: 'd' }, 'stopping'],
    [{ owner: 'x', target: 'gone' }, 'stopping'],
    [{ owner: 'x', target: 'l' }, 'stopping'],
    [{ owner: null, target: 'y' }, 'claiming'],
    [{ owner: 'd', target: 'y' }, 'claiming'],
    [{ owner: null, target: 'gone' }, 'orphan'],
    [{ owner: null, target: 'd' }, 'orphan'],
    [{ owner: 'd', target: 'd' }, 'orphan'],
    [{ owner: 'gone', target: 'gone' }, 'orphan'],
    [{ owner: null, target: null }, 'orphan'],
    [{ owner: null, target: 'l' }, 'orphan'],
    [{ owner: null, target: 'y', paused: true }, 'paused'],
    [{ owner: 'x', target: 'x', paused: true }, 'settled'],
  ];
  for (const [row, want] of cases) expect(`agentState(${JSON.stringify(row)})`, m.agentState(row, byId), want);

  // dead-letter errors: Throwable.toString() splits into class and message
  expect('class and message', m.splitError('io.tenure.cli.DemoWorkload$FlakyFailure: message 25 is flaky: replay it'), {
    className: 'io.tenure.cli.DemoWorkload$FlakyFailure', simpleName: 'FlakyFailure', message: 'message 25 is flaky: replay it',
  });
  expect('class alone', m.splitError('java.lang.NullPointerException'), { className: 'java.lang.NullPointerException', simpleName: 'NullPointerException', message: '' });
  expect('no class', m.splitError('lease expired on attempt 5 of 5'), { className: '', simpleName: '', message: 'lease expired on attempt 5 of 5' });
  expect('not a class: a URL', m.splitError('http://x: y').message, 'http://x: y');
  expect('a nested cause stays message', m.splitError('java.lang.RuntimeException: java.io.IOException: boom').message, 'java.io.IOException: boom');

  // the dead-letter count: a short list is the whole set; a full one shows the first of the count
  expect('short list counts', m.deadCount({ dead: 2 }, new Array(3), 50), 3);
  expect('short list counts down', m.deadCount({ dead: 9 }, [], 50), 0);
  expect('full list: the store count', m.deadCount({ dead: 70 }, new Array(50), 50), 70);
  expect('full list: at least the rows', m.deadCount({ dead: 40 }, new Array(50), 50), 50);
  expect('no list: the store count', m.deadCount({ dead: 5 }, null, 50), 5);

  // node addresses, with or without a final slash
  for (const a of ['http://127.0.0.1:8081/', 'http://127.0.0.1:8081', 'http://127.0.0.1:8081//']) {
    expect(`joinUrl(${a}, metrics)`, m.joinUrl(a, 'metrics'), 'http://127.0.0.1:8081/metrics');
    expect(`joinUrl(${a}, /metrics)`, m.joinUrl(a, '/metrics'), 'http://127.0.0.1:8081/metrics');
  }
  expect('joinUrl under a path', m.joinUrl('http://h:1/admin/', 'metrics'), 'http://h:1/admin/metrics');

  // queue control: what the row shows, and the limits an operator types
  expect('a free queue shows nothing', m.controlText({ paused: false, limits: { maxInFlight: 0, maxInFlightPerGroup: 0, rate: null } }), '');
  expect('paused with limits', m.controlText({ paused: true, limits: { maxInFlight: 20, maxInFlightPerGroup: 2, rate: { claims: 100, perMs: 1000, perGroup: true } } }), 'PAUSED · ≤20 in flight · ≤2/group · 100/1s/group');
  expect('limits typed', m.parseLimits('20, 2, 100/1s'), { maxInFlight: 20, maxInFlightPerGroup: 2, rate: { claims: 100, perMs: 1000, perGroup: false } });
  expect('a rate per group in ms', m.parseLimits(', , 5/500ms per group'), { maxInFlight: 0, maxInFlightPerGroup: 0, rate: { claims: 5, perMs: 500, perGroup: true } });
  expect('empty lifts every limit', m.parseLimits(''), { maxInFlight: 0, maxInFlightPerGroup: 0 });
  for (const bad of ['x', '-1', '1, 2, 10', '1, 2, 3/1d', '1,2,3/1s,4']) {
    let thrown = null;
    try {
      m.parseLimits(bad);
    } catch (e) {
      thrown = e.message;
    }
    if (!thrown) problems.push(`parseLimits(${JSON.stringify(bad)}) did not refuse`);
  }

  // one message's actions follow its status, as the store decides them (SPEC §12.3, §12.7)
  const actions = (cancel, del, runNow, retry) => ({ cancel, delete: del, 'run-now': runNow, retry });
  expect('a pending message', m.messageActions('PENDING'), actions(true, true, true, false));
  expect('a running message', m.messageActions('INFLIGHT'), actions(true, false, false, false));
  expect('a dead message', m.messageActions('DEAD'), actions(false, true, false, true));
  expect('a cancelled message', m.messageActions('CANCELLED'), actions(false, true, false, true));
  expect('a done message', m.messageActions('DONE'), actions(false, true, false, false));
  expect('ages typed', ['', ' ', '90s', '10m', '2h', '3d', '15', '500ms'].map((t) => m.parseAge(t)), [null, null, 90000, 600000, 7200000, 259200000, 900000, 500]);
  for (const bad of ['x', '-1', '1w', '1.5h', '25d', '10 minutes']) {
    let thrown = null;
    try {
      m.parseAge(bad);
    } catch (e) {
      thrown = e.message;
    }
    if (!thrown) problems.push(`parseAge(${JSON.stringify(bad)}) did not refuse`);
  }
  expect('a filtered page', m.messagesQuery({ status: 'DEAD', key: 'k 1', group: 'tenant-a', errorContains: '', olderThanMs: 0 }, 42, 50), 'status=DEAD&key=k+1&group=tenant-a&olderThanMs=0&after=42&limit=50');
  expect('the first page of any status', m.messagesQuery({ status: '', olderThanMs: null }, 0, 50), 'limit=50');
  expect('run now of an available message', m.actionOutcome('run-now', 7, { changed: false }), 'message 7: was available already; nothing changed');
  expect('a running message cancelled', m.actionOutcome('cancel', 7, { cancelled: 'RUNNING' }), 'message 7: cancelled while running; its owner is told');

  if (problems.length) throw new Failure(`model.js: ${problems.length} case(s) wrong:\n  ${problems.join('\n  ')}`);
  console.log(`console e2e: model.js: ${cases.length} agent states and the other cases are right`);
}

// ---------------------------------------------------------------- reading the page

/** Polls fn (which returns a truthy value when done) until timeout; describe() explains a timeout. */
async function waitUntil(what, timeoutMs, fn, describe) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) {
      const state = describe ? await describe() : '';
      throw new Failure(`timed out after ${timeoutMs / 1000} s waiting for ${what}${state ? `; last seen: ${state}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What the console shows about nodes and agents, read from the DOM; checks its invariants. */
async function clusterView(page) {
  const view = await page.evaluate(() => ({
    nodes: [...document.querySelectorAll('[data-node]')].map((el) => ({
      name: el.getAttribute('data-node'),
      id: el.getAttribute('data-node-id'),
      status: el.getAttribute('data-status') || el.querySelector('.status')?.textContent?.trim() || '',
      leader: el.getAttribute('data-leader') === 'true',
      role: el.getAttribute('data-incarnation'),
      visible: el.checkVisibility(),
    })),
    chips: [...document.querySelectorAll('[data-agent]')].map((el) => ({
      uri: el.getAttribute('data-agent'),
      owner: el.getAttribute('data-owner'),
      ownerId: el.getAttribute('data-owner-id'),
      targetId: el.getAttribute('data-target-id'),
      state: el.getAttribute('data-agent-state'),
      group: el.closest('[data-group]')?.getAttribute('data-group') ?? null,
      flags: el.querySelector('.chip-flags')?.textContent ?? '',
    })),
    unfolded: [...document.querySelectorAll('[data-incarnations-toggle][aria-expanded="true"]')].map((el) => el.getAttribute('data-incarnations-toggle')),
    live: document.getElementById('live-text')?.textContent ?? '',
    banner: document.getElementById('stale-banner')?.hidden ? '' : document.getElementById('stale-banner')?.textContent ?? '',
  }));
  view.owners = view.chips.map((c) => c.owner);
  const problems = invariantProblems(view);
  if (problems.length) throw new Failure(`the console shows an impossible state: ${problems.join('; ')}; ${summarize(view)}`);
  return view;
}

/**
 * What must hold on every poll: one current card per node name; a name's other DEAD incarnations
 * are folded unless its toggle is open; an agent under a node's name is owned by a live incarnation
 * of that name; a hand-off names a live target.
 */
function invariantProblems(view) {
  const problems = [];
  const current = {};
  for (const n of view.nodes) if (n.role === 'current') current[n.name] = (current[n.name] ?? 0) + 1;
  for (const [name, k] of Object.entries(current)) if (k !== 1) problems.push(`${k} current cards for ${name}`);
  for (const n of view.nodes) {
    if (n.role === 'current' && !n.visible) problems.push(`the current ${n.name} is hidden`);
    if (n.status === 'DEAD' && n.role === 'older') problems.push(`dead ${n.name} #${n.id} shown as a live incarnation`);
    if (n.role === 'dead' && n.visible && !view.unfolded.includes(n.name)) problems.push(`dead ${n.name} #${n.id} shown with its toggle closed`);
  }
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  for (const c of view.chips) {
    if (c.group && c.group !== 'unassigned') {
      const owner = byId.get(c.ownerId);
      if (!owner || owner.status === 'DEAD' || owner.name !== c.group) problems.push(`${c.uri} listed under ${c.group} but owned by ${owner ? `${owner.name} (${owner.status})` : `#${c.ownerId} (not a member)`}`);
    }
    if (c.state === 'handoff' && byId.get(c.targetId)?.status !== 'ACTIVE') problems.push(`${c.uri} shown handing off to #${c.targetId}, which is not an active node`);
  }
  return problems;
}

function summarize(view) {
  const nodes = view.nodes.map((n) => `${n.name}#${(n.id ?? '').slice(0, 4)}=${n.status}${n.leader ? '(leader)' : ''}${n.visible ? '' : '(folded)'}`).join(', ') || 'no nodes';
  const owners = {};
  for (const c of view.chips) owners[`${c.owner || '(none)'}/${c.state}`] = (owners[`${c.owner || '(none)'}/${c.state}`] ?? 0) + 1;
  const agents = Object.entries(owners).map(([o, k]) => `${o}:${k}`).join(', ') || 'no agents';
  return `nodes [${nodes}], agents by owner/state [${agents}], indicator "${view.live}"${view.banner ? `, banner "${view.banner}"` : ''}`;
}

const describeCluster = (page) => async () => summarize(await clusterView(page).catch((e) => ({ nodes: [], chips: [], live: e.message })));

/** Clicks a button and waits for the POST it must send; fails on a non-2xx answer. */
async function clickAndAwaitPost(page, locator, urlPart, what) {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(urlPart), { timeout: 20_000 });
  await locator.click({ timeout: 10_000 });
  const res = await answer.catch(() => {
    throw new Failure(`${what}: the click sent no POST ${urlPart} within 20 s`);
  });
  if (!res.ok()) throw new Failure(`${what}: POST answered ${res.status()}: ${await res.text().catch(() => '')}`);
  return res;
}

const demoButton = (page, action, name) => page.locator(`[data-demo-row="${cssString(name)}"] [data-demo-action="${action}"]`);

// ---------------------------------------------------------------- the steps

async function startUp(page) {
  const response = await page.goto(baseUrl, { waitUntil: 'domcontentloaded', timeout: 15_000 }).catch((e) => {
    throw new Failure(`could not load ${baseUrl}: ${e.message}`);
  });
  if (!response || !response.ok()) throw new Failure(`GET ${baseUrl} answered ${response ? response.status() : 'nothing'}`);
  return waitUntil(
    'exactly 3 ACTIVE nodes and exactly one leader',
    START_TIMEOUT_MS,
    async () => {
      const v = await clusterView(page);
      const active = v.nodes.filter((n) => n.status === 'ACTIVE').length;
      const leaders = v.nodes.filter((n) => n.leader).length;
      return active === 3 && leaders === 1 ? v : null;
    },
    describeCluster(page),
  );
}

/** On SQLite the pause button says that a paused process can stop every node's writes. */
async function sqlitePauseWarning(page) {
  const provider = (await page.locator('#store-provider').textContent()).trim();
  if (provider !== 'sqlite') {
    console.log(`console e2e: store is ${provider}: no SQLite pause warning expected`);
    return;
  }
  const note = page.locator('#demo-sqlite-warning');
  if (!(await note.isVisible())) throw new Failure('on SQLite the demo panel shows no pause warning');
  const text = await note.textContent();
  if (!/paused process that holds the database's write lock stops every node's writes/.test(text)) throw new Failure(`the SQLite pause warning reads "${text}"`);
  const titles = await page.$$eval('[data-demo-action="pause"]', (els) => els.map((e) => e.getAttribute('title') ?? ''));
  if (titles.length === 0 || titles.some((t) => !t.includes("holds the database's write lock"))) {
    throw new Failure(`every pause button must carry the SQLite warning; titles: ${JSON.stringify(titles)}`);
  }
  console.log(`console e2e: SQLite pause warning shown, on ${titles.length} pause buttons too`);
}

/** Each node's metrics link is its address joined with "metrics" (addresses end in "/") and answers. */
async function metricsLinks(page) {
  const hrefs = await page.$$eval('[data-incarnation="current"] [data-metrics-link]', (els) => els.map((e) => e.href));
  if (hrefs.length !== 3) throw new Failure(`expected a metrics link on each of the 3 nodes, found ${hrefs.length}`);
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.pathname !== '/metrics') throw new Failure(`metrics link ${href} does not point at /metrics`);
    const res = await page.request.get(href, { timeout: 10_000 });
    if (res.status() !== 200 || !(await res.text()).includes('tenure_')) throw new Failure(`GET ${href} answered ${res.status()}, not the node's metrics`);
  }
  console.log(`console e2e: metrics links answer: ${hrefs.join(', ')}`);
}

async function stopLeader(page, startView) {
  const leader = startView.nodes.find((n) => n.leader);
  console.log(`console e2e: leader is ${leader.name}; stopping it from the console`);
  const stop = page.locator(`[data-demo-action="stop"][data-demo-node="${cssString(leader.name)}"]`).first();
  if ((await stop.count()) === 0) throw new Failure(`no demo stop button for ${leader.name}: is this a \`tenure demo\` console (GET /api/demo must answer 200)?`);
  await clickAndAwaitPost(page, stop, `/api/demo/nodes/${encodeURIComponent(leader.name)}/stop`, `stop ${leader.name}`);
  const after = await waitUntil(
    `a leader other than ${leader.name} and no agent owned by ${leader.name}`,
    FAILOVER_TIMEOUT_MS,
    async () => {
      const v = await clusterView(page);
      const leaders = v.nodes.filter((n) => n.leader);
      return leaders.length === 1 && leaders[0].name !== leader.name && !v.owners.includes(leader.name) ? v : null;
    },
    describeCluster(page),
  );
  const newLeader = after.nodes.find((n) => n.leader).name;
  console.log(`console e2e: leader moved ${leader.name} -> ${newLeader}; ${after.chips.length} agents, none on ${leader.name}`);
  return { old: leader, newLeader, after };
}

/**
 * Rows whose target has left (here: the stopped leader, no longer a member) are shown as unassigned,
 * waiting for the leader, never as a hand-off. The leader re-places such rows within a tick, so the
 * rows are made by rewriting real /api/agents answers in the browser, which is deterministic.
 */
async function orphanedAgents(page, departed, view) {
  const live = view.nodes.find((n) => n.status === 'ACTIVE' && n.visible);
  const uris = view.chips.slice(0, 3).map((c) => c.uri);
  if (uris.length < 3) throw new Failure(`need 3 agents to fake orphans, found ${uris.length}`);
  const rewrite = {
    [uris[0]]: { owner: null, ownerName: null, target: departed.id, targetName: departed.name, handoff: false },
    [uris[1]]: { owner: departed.id, ownerName: departed.name, target: departed.id, targetName: departed.name, handoff: false },
    [uris[2]]: { owner: live.id, ownerName: live.name, target: departed.id, targetName: departed.name, handoff: true },
  };
  const matcher = (url) => url.pathname === '/api/agents';
  const handler = async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const a of body.agents ?? []) Object.assign(a, rewrite[a.uri] ?? {});
    await route.fulfill({ response: res, json: body });
  };
  await page.route(matcher, handler);
  try {
    const seen = await waitUntil(
      `agents targeting the departed ${departed.name} shown as waiting for the leader`,
      10_000,
      async () => {
        const v = await clusterView(page);
        const chip = (uri) => v.chips.find((c) => c.uri === uri);
        const [o1, o2, s] = uris.map(chip);
        const ok = o1?.state === 'orphan' && o2?.state === 'orphan' && s?.state === 'stopping';
        return ok ? [o1, o2, s] : null;
      },
      async () => JSON.stringify((await clusterView(page)).chips.filter((c) => uris.includes(c.uri))),
    );
    for (const c of seen.slice(0, 2)) {
      if (c.group !== 'unassigned') throw new Failure(`orphaned ${c.uri} is listed under ${c.group}, not with the unassigned agents`);
      if (!/unassigned · (waiting for the leader|no leader to place it yet)/.test(c.flags) || /⇄|→/.test(c.flags)) {
        throw new Failure(`orphaned ${c.uri} reads "${c.flags}", not as unassigned and waiting for the leader`);
      }
    }
    if (!/stopping on .* (waiting for the leader|no leader to place it yet)/.test(seen[2].flags) || /⇄/.test(seen[2].flags)) {
      throw new Failure(`${seen[2].uri}, stopping for a departed target, reads "${seen[2].flags}"`);
    }
    console.log(`console e2e: orphaned agents read "${seen[0].flags}" / "${seen[2].flags}"`);
  } finally {
    await page.unroute(matcher, handler);
  }
  await waitUntil(
    'the real agent rows back',
    20_000,
    async () => (await clusterView(page)).chips.filter((c) => uris.includes(c.uri) && c.state === 'settled').length === 3,
    describeCluster(page),
  );
}

/** Kills a node and starts it again: its dead incarnation folds under the new one, with a toggle. */
async function deadIncarnationFolds(page, victim) {
  const deadBefore = (await clusterView(page)).nodes.filter((n) => n.name === victim.name && n.status === 'DEAD').length;
  console.log(`console e2e: killing ${victim.name} (#${victim.id.slice(0, 8)}) from the console`);
  await clickAndAwaitPost(page, demoButton(page, 'kill', victim.name), `/api/demo/nodes/${encodeURIComponent(victim.name)}/kill`, `kill ${victim.name}`);
  await waitUntil(`${victim.name} declared DEAD`, NODE_TIMEOUT_MS, async () => {
    const v = await clusterView(page);
    return v.nodes.some((n) => n.id === victim.id && n.status === 'DEAD' && n.visible);
  }, describeCluster(page));
  await clickAndAwaitPost(page, demoButton(page, 'start', victim.name), `/api/demo/nodes/${encodeURIComponent(victim.name)}/start`, `start ${victim.name}`);
  const group = page.locator(`[data-node-group="${cssString(victim.name)}"]`);
  const toggle = group.locator('[data-incarnations-toggle]');
  const reborn = await waitUntil(`a new ACTIVE ${victim.name} with the dead one folded`, NODE_TIMEOUT_MS, async () => {
    const v = await clusterView(page);
    const mine = v.nodes.filter((n) => n.name === victim.name);
    const current = mine.find((n) => n.role === 'current');
    const old = mine.find((n) => n.id === victim.id);
    return current && current.status === 'ACTIVE' && current.id !== victim.id && old?.role === 'dead' && !old.visible ? current : null;
  }, describeCluster(page));
  const label = (await toggle.textContent()).trim();
  const want = `${deadBefore + 1} dead incarnation${deadBefore ? 's' : ''}`;
  if (!label.endsWith(want) || (await toggle.getAttribute('aria-expanded')) !== 'false') {
    throw new Failure(`${victim.name}'s toggle reads "${label}" (aria-expanded ${await toggle.getAttribute('aria-expanded')})`);
  }
  const oldCard = group.locator(`[data-node-id="${cssString(victim.id)}"]`);
  await toggle.click();
  await waitUntil('the dead incarnation shown after the toggle', 5000, async () => (await oldCard.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'true');
  const status = await oldCard.getAttribute('data-status');
  if (status !== 'DEAD') throw new Failure(`the unfolded incarnation of ${victim.name} is ${status}`);
  await screenshot(page, screenshotPath.replace(/(\.png)?$/, '-incarnations.png'));
  await toggle.click();
  await waitUntil('the dead incarnation folded again', 5000, async () => !(await oldCard.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false');
  console.log(`console e2e: ${victim.name} is #${reborn.id.slice(0, 8)}; its dead #${victim.id.slice(0, 8)} folds ("${label}") and unfolds`);
}

/** What the dead-letter panel shows for the chosen queue, read in one go. */
function deadView(page, queue) {
  return page.evaluate((q) => {
    const tab = document.querySelector('[data-dead-tab].is-selected');
    const row = [...document.querySelectorAll('[data-queue]')].find((r) => r.getAttribute('data-queue') === q);
    return {
      tab: tab?.getAttribute('data-dead-tab') ?? null,
      tabCount: Number(tab?.getAttribute('data-dead-count')),
      tableCount: row ? Number(row.getAttribute('data-dead-count')) : null, // a queue with no messages has no row
      rows: document.querySelectorAll('#dead-rows [data-dead-id]').length,
      note: document.getElementById('dead-status')?.textContent ?? '',
      button: document.getElementById('replay-all')?.textContent ?? '',
    };
  }, queue);
}

/** After a purge the count and the rows agree on every poll as dead letters arrive; rows show the message. */
async function deadLetters(page, state) {
  const queue = 'orders';
  const tab = page.locator(`[data-dead-tab="${queue}"]`);
  await waitUntil(`a dead-letter tab for ${queue}`, DEAD_LETTER_TIMEOUT_MS, async () => (await tab.count()) > 0);
  await tab.click();
  await waitUntil(`${queue} chosen`, 5000, async () => (await deadView(page, queue)).tab === queue);
  // A tab click shows "Loading..." until the next poll answers (seconds on a busy machine): the
  // count and the list are compared once the list has loaded, not before.
  await waitUntil(`${queue}'s dead letters loaded`, 20_000, async () => !(await deadView(page, queue)).note.startsWith('Loading'));
  state.acceptDialogs = true; // the purge asks for confirmation
  try {
    await clickAndAwaitPost(page, page.locator('#purge-all'), `/api/queues/${queue}/dead/purge`, `purge ${queue}`);
  } finally {
    state.acceptDialogs = false;
  }
  // Every sample must agree, from before the purge shows to new dead letters arriving after it.
  const started = Date.now();
  const counts = new Set(); // after the purge
  let samples = 0;
  while (Date.now() - started < AGREE_MAX_MS && (Date.now() - started < AGREE_MIN_MS || counts.size < 3)) {
    const d = await deadView(page, queue);
    samples++;
    if (d.tab !== queue) throw new Failure(`the dead-letter panel left the chosen queue ${queue}: ${JSON.stringify(d)}`);
    const table = d.tableCount ?? (d.rows === 0 ? 0 : NaN);
    const agree = d.rows < DEAD_LIMIT ? d.tabCount === d.rows && table === d.rows : d.tabCount >= d.rows && table === d.tabCount;
    if (!agree) throw new Failure(`the dead-letter count and list disagree: ${JSON.stringify(d)}`);
    if (d.rows > 0 && d.rows < DEAD_LIMIT) {
      if (!d.note.startsWith(`${queue}: ${d.rows} dead`)) throw new Failure(`the note disagrees with the rows: ${JSON.stringify(d)}`);
      if (!d.button.includes(`(${d.rows})`)) throw new Failure(`"replay all" disagrees with the rows: ${JSON.stringify(d)}`);
    }
    if (d.rows < DEAD_LIMIT) counts.add(d.rows);
    await page.waitForTimeout(100);
  }
  if (counts.size < 2) throw new Failure(`no dead letter arrived in ${queue} within ${AGREE_MAX_MS / 1000} s after the purge; counts seen ${[...counts]}`);
  console.log(`console e2e: dead-letter count equals the rows in ${samples} samples over ${Math.round((Date.now() - started) / 1000)} s (counts ${[...counts].join(', ')})`);

  const first = page.locator('#dead-rows [data-dead-id]').filter({ has: page.locator('.dl-error[data-error-class$="FlakyFailure"]') }).first();
  if ((await first.count()) === 0) throw new Failure(`no dead letter of ${queue} failed with the demo's FlakyFailure`);
  const cell = first.locator('.dl-error');
  const shown = (await cell.locator('.clip').textContent()).trim();
  const title = (await cell.getAttribute('title')) ?? '';
  if (!/^message \d+ is flaky/.test(shown) || shown.includes('io.tenure')) throw new Failure(`a dead letter's error cell shows "${shown}", not the error's message`);
  if (!title.includes('DemoWorkload$FlakyFailure')) throw new Failure(`the error's class is not in the cell's tooltip: "${title}"`);
  console.log(`console e2e: dead letter reads "${shown}" (class in the tooltip)`);

  const id = await first.getAttribute('data-dead-id');
  const button = page.locator(`[data-replay="${cssString(id)}"]`);
  console.log(`console e2e: replaying dead letter ${id} of ${queue}`);
  await clickAndAwaitPost(page, button, `/dead/${id}/replay`, `replay of message ${id}`);
  await waitUntil(`dead letter row ${id} to disappear`, REPLAY_TIMEOUT_MS, async () => (await button.count()) === 0);
  return id;
}

/** What the Messages panel lists, read in one go. */
function messagesShown(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#msg-rows [data-msg-id]')].map((row) => ({
      id: row.getAttribute('data-msg-id'),
      status: row.getAttribute('data-msg-status'),
      key: row.getAttribute('data-msg-key'),
      error: row.querySelector('.msg-error .clip')?.textContent ?? '',
      errorClass: row.querySelector('.msg-error')?.getAttribute('data-error-class') ?? '',
      enabled: [...row.querySelectorAll('[data-msg-action]')].filter((b) => !b.disabled).map((b) => b.getAttribute('data-msg-action')),
    })),
  );
}

/**
 * The Messages panel (SPEC §12.7) on the demo's orders queue: its dead messages show the error's
 * message (the class only in the tooltip) and only the buttons their status allows; retry one (it
 * leaves the dead list, and the toast says so), delete another after the confirmation (the API no
 * longer has it), and a key filter keeps only that key's messages.
 */
async function messagesView(page, state) {
  const queue = 'orders';
  await page.selectOption('#msg-queue', queue);
  await page.selectOption('#msg-status', 'DEAD');
  const shown = await waitUntil(`two dead messages of ${queue} in the Messages panel`, DEAD_LETTER_TIMEOUT_MS, async () => {
    const rows = await messagesShown(page);
    return rows.length >= 2 ? rows : null;
  }, async () => JSON.stringify(await messagesShown(page)));
  for (const row of shown) {
    if (row.status !== 'DEAD') throw new Failure(`the dead list shows message ${row.id} as ${row.status}`);
    if (JSON.stringify(row.enabled) !== JSON.stringify(['delete', 'retry'])) throw new Failure(`dead message ${row.id} enables ${JSON.stringify(row.enabled)}, not delete and retry`);
    if (/^io\.tenure|Exception|Failure:/.test(row.error) || !row.errorClass) throw new Failure(`message ${row.id}'s error cell reads "${row.error}" (class "${row.errorClass}"), not the error's message`);
  }
  const [retried, deleted] = shown;
  const retryButton = page.locator(`#msg-rows [data-msg-id="${retried.id}"] [data-msg-action="retry"]`);
  await clickAndAwaitPost(page, retryButton, `/api/messages/${retried.id}/retry`, `retry of message ${retried.id}`);
  await waitUntil(`a toast for the retry of ${retried.id}`, 10_000, async () => (await page.locator('.toast-msg', { hasText: `message ${retried.id}: pending again` }).count()) > 0);
  await waitUntil(`message ${retried.id} gone from the dead list`, REPLAY_TIMEOUT_MS, async () => !(await messagesShown(page)).some((r) => r.id === retried.id));
  state.acceptDialogs = true; // the delete asks for confirmation
  try {
    await clickAndAwaitPost(page, page.locator(`#msg-rows [data-msg-id="${deleted.id}"] [data-msg-action="delete"]`), `/api/messages/${deleted.id}/delete`, `delete of message ${deleted.id}`);
  } finally {
    state.acceptDialogs = false;
  }
  await waitUntil(`message ${deleted.id} gone from the dead list`, REPLAY_TIMEOUT_MS, async () => !(await messagesShown(page)).some((r) => r.id === deleted.id));
  const gone = await page.evaluate(async (id) => (await fetch(`api/messages/${id}`)).status, deleted.id);
  if (gone !== 404) throw new Failure(`deleted message ${deleted.id} still answers ${gone}`);
  const key = shown.find((r) => r.key && r.id !== deleted.id)?.key;
  if (key) {
    await page.selectOption('#msg-status', '');
    await page.fill('#msg-key', key);
    await page.click('#msg-apply');
    const keyed = await waitUntil(`only key ${key} listed`, 10_000, async () => {
      const rows = await messagesShown(page);
      return rows.length > 0 && rows.every((r) => r.key === key) ? rows : null;
    }, async () => JSON.stringify(await messagesShown(page)));
    console.log(`console e2e: key ${key} lists ${keyed.length} message(s) of any status`);
    await page.fill('#msg-key', '');
    await page.click('#msg-apply');
  }
  console.log(`console e2e: Messages panel: retried message ${retried.id}, deleted message ${deleted.id}`);
}

/**
 * The demo's schedule is listed; "trigger now" enqueues its message at once, and the report it
 * asks for is built under the demo's named lock, which then shows in the locks panel.
 */
async function schedulesAndLocks(page) {
  const row = page.locator('[data-schedule="demo-report"]');
  await waitUntil('the demo-report schedule listed', 15_000, async () => (await row.count()) > 0);
  const when = (await row.locator('td').nth(1).textContent()).trim();
  if (when !== 'every PT10S') throw new Failure(`the schedule's timing reads "${when}", not "every PT10S"`);
  const lock = page.locator('[data-lock="demo-report"]');
  const before = (await lock.count()) > 0 ? Number(await lock.getAttribute('data-lock-token')) : 0;
  const res = await clickAndAwaitPost(page, row.locator('[data-schedule-action="trigger"]'), '/api/schedules/demo-report/trigger', 'trigger demo-report');
  const id = (await res.json()).id;
  await waitUntil('the demo-report lock taken again', 20_000, async () =>
    (await lock.count()) > 0 && Number(await lock.getAttribute('data-lock-token')) > before);
  const holder = (await lock.locator('td').nth(2).textContent()).trim();
  console.log(`console e2e: triggered demo-report (message ${id}); the lock was taken at token ${await lock.getAttribute('data-lock-token')} by ${holder}`);
}

/**
 * The queue row's pause button pauses the demo's `orders` queue on every node (SPEC §12.2): the
 * row reads PAUSED and the store says so; resume lets it run again.
 */
async function queuePauseAndResume(page) {
  const row = page.locator('[data-queue="orders"]');
  await waitUntil('the orders queue listed', 15_000, async () => (await row.count()) > 0);
  await clickAndAwaitPost(page, row.locator('[data-queue-action="pause"]'), '/api/queues/orders/pause', 'pause orders');
  await waitUntil('the orders row to read PAUSED', 10_000, async () => ((await row.locator('.queue-state').textContent()) ?? '').includes('PAUSED'));
  const control = await page.evaluate(async () => (await fetch('api/queues/orders/control')).json());
  if (control.paused !== true) throw new Failure(`after the click the store says orders is not paused: ${JSON.stringify(control)}`);
  await clickAndAwaitPost(page, row.locator('[data-queue-action="resume"]'), '/api/queues/orders/resume', 'resume orders');
  await waitUntil('the orders row to run again', 10_000, async () => !((await row.locator('.queue-state').textContent()) ?? '').includes('PAUSED'));
  console.log('console e2e: paused and resumed the orders queue from its row');
}

async function main(page, state) {
  await modelChecks();
  const startView = await startUp(page);
  await sqlitePauseWarning(page);
  await metricsLinks(page);
  await schedulesAndLocks(page);
  await queuePauseAndResume(page);
  const { old, newLeader, after } = await stopLeader(page, startView);
  await orphanedAgents(page, old, after);
  const victim = after.nodes.find((n) => n.status === 'ACTIVE' && !n.leader && n.role === 'current');
  if (!victim) throw new Failure(`no non-leader left to kill; ${summarize(after)}`);
  await deadIncarnationFolds(page, victim);
  await clickAndAwaitPost(page, demoButton(page, 'start', old.name), `/api/demo/nodes/${encodeURIComponent(old.name)}/start`, `start ${old.name}`);
  const replayed = await deadLetters(page, state);
  await messagesView(page, state);
  await waitUntil('3 ACTIVE nodes again', NODE_TIMEOUT_MS, async () => {
    const v = await clusterView(page);
    return v.nodes.filter((n) => n.status === 'ACTIVE' && n.visible).length === 3;
  }, describeCluster(page));

  const violations = await page.evaluate(() => window.__cspViolations ?? []);
  if (state.cspErrors.length || violations.length) {
    throw new Failure(`the page broke its Content-Security-Policy: ${[...state.cspErrors, ...violations].join(' | ')}`);
  }
  if (state.pageErrors.length) throw new Failure(`the page threw: ${state.pageErrors.join(' | ')}`);
  await screenshot(page, screenshotPath);
  console.log(`console e2e: OK (leader ${old.name} -> ${newLeader}, ${victim.name} restarted, replayed message ${replayed}; CSP ${state.csp})`);
}

// ---------------------------------------------------------------- the browser

/** A full-page screenshot; the viewport grows to the page first so the sticky header stays on top. */
async function screenshot(page, file) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight).catch(() => 1000);
  await page.evaluate(() => window.scrollTo(0, 0)).catch(() => {});
  await page.setViewportSize({ width: 1400, height: Math.min(Math.max(height, 600), 8000) }).catch(() => {});
  await page.waitForTimeout(300);
  await page.screenshot({ path: file, fullPage: true });
  await page.setViewportSize({ width: 1400, height: 1000 }).catch(() => {});
}

/** Escapes a value for use inside a double-quoted CSS attribute selector. */
function cssString(s) {
  return String(s).replace(/["\\]/g, '\\$&');
}

const CONTENT_TYPES = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };

/** The console's page (and with CONSOLE_SRC its files) under the strict policy, if the server sets none. */
async function enforceCsp(page, state) {
  const base = new URL(baseUrl);
  const isConsoleFile = (url) => url.origin === base.origin && (url.pathname === base.pathname || /^\/[A-Za-z0-9_-]+\.(html|js|css|svg)$/.test(url.pathname));
  await page.route(isConsoleFile, async (route) => {
    const request = route.request();
    const isDocument = request.resourceType() === 'document';
    if (!isDocument && !CONSOLE_SRC) return route.continue();
    const res = await route.fetch();
    const headers = { ...res.headers() };
    let body;
    if (CONSOLE_SRC) {
      const pathname = new URL(request.url()).pathname;
      const file = pathname === base.pathname ? 'index.html' : pathname.slice(1);
      body = fs.readFileSync(path.join(CONSOLE_SRC, file));
      headers['content-type'] = CONTENT_TYPES[file.split('.').pop()];
    }
    if (isDocument) {
      if (headers['content-security-policy']) state.csp = `from the server: ${headers['content-security-policy']}`;
      else {
        headers['content-security-policy'] = STRICT_CSP;
        state.csp = `imposed by the test: ${STRICT_CSP}`;
      }
    }
    await route.fulfill({ response: res, status: CONSOLE_SRC ? 200 : res.status(), headers, body });
  });
  // A violation shows up as a console error ("Refused to ...") and as an event the page can see.
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber}`);
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) state.cspErrors.push(m.text());
  });
}

const browser = await chromium
  .launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  .catch((e) => {
    console.error(`console e2e: FAILED: could not launch Chromium at ${CHROMIUM}: ${e.message}`);
    process.exit(1);
  });

let exitCode = 0;
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const state = { pageErrors: [], cspErrors: [], csp: 'not seen', acceptDialogs: false };
page.on('pageerror', (e) => state.pageErrors.push(e.message));
// Only the purge's confirmation is accepted; any other dialog (a token prompt) is dismissed.
page.on('dialog', (d) => (state.acceptDialogs && d.type() === 'confirm' ? d.accept() : d.dismiss()).catch(() => {}));
try {
  await enforceCsp(page, state);
  await main(page, state);
} catch (e) {
  exitCode = 1;
  console.error(`console e2e: FAILED: ${e instanceof Failure ? e.message : e.stack || e}`);
  await screenshot(page, screenshotPath)
    .then(() => console.error(`console e2e: screenshot of the failure: ${screenshotPath}`))
    .catch((err) => console.error(`console e2e: could not take a screenshot: ${err.message}`));
} finally {
  await browser.close().catch(() => {});
}
process.exit(exitCode);
