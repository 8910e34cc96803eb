#!/usr/bin/env node
// End-to-end check of the web console against a running `tenure demo` (three nodes, a workload).
//
//   npm ci && node console-e2e.mjs http://127.0.0.1:8080/ /tmp/console-e2e.png
//
// Stops the leader from the console, waits for fail-over (another leader, no agent left on the old
// one), replays one dead letter, and saves a full-page screenshot. Needs Chromium at /usr/bin/chromium
// (or CHROMIUM=/path); never downloads a browser. Exit 0 on success, 1 with a reason otherwise.
import { chromium } from 'playwright-core';

const [baseUrl, screenshotPath] = process.argv.slice(2);
if (!baseUrl || !screenshotPath) {
  console.error('usage: node console-e2e.mjs <console base URL> <screenshot path>');
  process.exit(2);
}

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const START_TIMEOUT_MS = 30_000;
const FAILOVER_TIMEOUT_MS = 30_000;
const DEAD_LETTER_TIMEOUT_MS = 30_000;
const REPLAY_TIMEOUT_MS = 10_000;

class Failure extends Error {}

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

/** What the console shows about nodes and agents, read from the DOM. */
function clusterView(page) {
  return page.evaluate(() => ({
    nodes: [...document.querySelectorAll('[data-node]')].map((el) => ({
      name: el.getAttribute('data-node'),
      status: el.getAttribute('data-status') || el.querySelector('.status')?.textContent?.trim() || '',
      leader: el.getAttribute('data-leader') === 'true',
    })),
    owners: [...document.querySelectorAll('[data-agent]')].map((el) => el.getAttribute('data-owner')),
    live: document.getElementById('live-text')?.textContent ?? '',
    banner: document.getElementById('stale-banner')?.hidden ? '' : document.getElementById('stale-banner')?.textContent ?? '',
  }));
}

function summarize(view) {
  const nodes = view.nodes.map((n) => `${n.name}=${n.status}${n.leader ? '(leader)' : ''}`).join(', ') || 'no nodes';
  const owners = {};
  for (const o of view.owners) owners[o || '(none)'] = (owners[o || '(none)'] ?? 0) + 1;
  const agents = Object.entries(owners).map(([o, k]) => `${o}:${k}`).join(', ') || 'no agents';
  return `nodes [${nodes}], agents by owner [${agents}], indicator "${view.live}"${view.banner ? `, banner "${view.banner}"` : ''}`;
}

async function main(page, pageErrors) {
  const response = await page.goto(baseUrl, { waitUntil: 'domcontentloaded', timeout: 15_000 }).catch((e) => {
    throw new Failure(`could not load ${baseUrl}: ${e.message}`);
  });
  if (!response || !response.ok()) throw new Failure(`GET ${baseUrl} answered ${response ? response.status() : 'nothing'}`);

  // 1. three ACTIVE nodes, exactly one leader
  const startView = await waitUntil(
    'exactly 3 ACTIVE nodes and exactly one leader',
    START_TIMEOUT_MS,
    async () => {
      const v = await clusterView(page);
      const active = v.nodes.filter((n) => n.status === 'ACTIVE').length;
      const leaders = v.nodes.filter((n) => n.leader).length;
      return active === 3 && leaders === 1 ? v : null;
    },
    async () => summarize(await clusterView(page)),
  );
  const oldLeader = startView.nodes.find((n) => n.leader).name;
  console.log(`console e2e: leader is ${oldLeader}; stopping it from the console`);

  // 2. stop the leader with its demo button (the node card's, the first of the two)
  const stopButton = page.locator(`[data-demo-action="stop"][data-demo-node="${cssString(oldLeader)}"]`).first();
  if ((await stopButton.count()) === 0) {
    throw new Failure(`no demo stop button for ${oldLeader}: is this a \`tenure demo\` console (GET /api/demo must answer 200)?`);
  }
  const stopAnswer = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().includes(`/api/demo/nodes/${encodeURIComponent(oldLeader)}/stop`),
    { timeout: 20_000 },
  );
  await stopButton.click({ timeout: 10_000 });
  const stopRes = await stopAnswer.catch(() => {
    throw new Failure(`clicking stop on ${oldLeader} sent no POST /api/demo/nodes/${oldLeader}/stop within 20 s`);
  });
  if (!stopRes.ok()) throw new Failure(`POST stop ${oldLeader} answered ${stopRes.status()}: ${await stopRes.text().catch(() => '')}`);

  // 3. fail-over: another leader, no agent still owned by the old one
  const after = await waitUntil(
    `a leader other than ${oldLeader} and no agent owned by ${oldLeader}`,
    FAILOVER_TIMEOUT_MS,
    async () => {
      const v = await clusterView(page);
      const leaders = v.nodes.filter((n) => n.leader);
      const ok = leaders.length === 1 && leaders[0].name !== oldLeader && !v.owners.includes(oldLeader);
      return ok ? v : null;
    },
    async () => summarize(await clusterView(page)),
  );
  const newLeader = after.nodes.find((n) => n.leader).name;
  console.log(`console e2e: leader moved ${oldLeader} -> ${newLeader}; ${after.owners.length} agents, none on ${oldLeader}`);

  // 4. a dead letter in any queue: cycle through the queue tabs until a row shows up
  let tabIndex = 0;
  let lastTabClick = 0;
  const replayId = await waitUntil(
    'a dead letter row in any queue',
    DEAD_LETTER_TIMEOUT_MS,
    async () => {
      const id = await page.locator('[data-replay]').first().getAttribute('data-replay', { timeout: 500 }).catch(() => null);
      if (id) return id;
      if (Date.now() - lastTabClick > 1500) {
        const tabs = page.locator('[data-dead-tab]');
        const n = await tabs.count();
        if (n > 0) {
          await tabs.nth(tabIndex % n).click({ timeout: 2000 }).catch(() => {});
          tabIndex++;
          lastTabClick = Date.now();
        }
      }
      return null;
    },
    async () => {
      const tabs = await page.$$eval('[data-dead-tab]', (els) => els.map((e) => `${e.getAttribute('data-dead-tab')}:${e.getAttribute('data-dead-count')}`));
      const note = await page.locator('#dead-status').textContent().catch(() => '');
      return `queues with dead counts [${tabs.join(', ')}]${note ? `, "${note}"` : ''}`;
    },
  );
  const row = page.locator(`[data-replay="${cssString(replayId)}"]`);
  const queue = await page.locator(`[data-dead-id="${cssString(replayId)}"]`).first().getAttribute('data-dead-queue').catch(() => null);
  console.log(`console e2e: replaying dead letter ${replayId}${queue ? ` of queue ${queue}` : ''}`);
  const replayAnswer = page.waitForResponse(
    (r) => r.request().method() === 'POST' && /\/dead\/[^/]+\/replay$/.test(new URL(r.url()).pathname) && r.url().includes(`/dead/${replayId}/replay`),
    { timeout: 20_000 },
  );
  await row.first().click({ timeout: 10_000 });
  const replayRes = await replayAnswer.catch(() => {
    throw new Failure(`clicking replay on message ${replayId} sent no POST .../dead/${replayId}/replay within 20 s`);
  });
  if (!replayRes.ok()) throw new Failure(`POST replay of message ${replayId} answered ${replayRes.status()}: ${await replayRes.text().catch(() => '')}`);
  await waitUntil(`dead letter row ${replayId} to disappear`, REPLAY_TIMEOUT_MS, async () => (await row.count()) === 0);

  if (pageErrors.length) throw new Failure(`the page threw: ${pageErrors.join(' | ')}`);
  await screenshot(page, screenshotPath);
  console.log(`console e2e: OK (leader ${oldLeader} -> ${newLeader}, replayed message ${replayId})`);
}

/** A full-page screenshot; the viewport grows to the page first so the sticky header stays on top. */
async function screenshot(page, path) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight).catch(() => 1000);
  await page.setViewportSize({ width: 1400, height: Math.min(Math.max(height, 600), 8000) }).catch(() => {});
  await page.waitForTimeout(300);
  await page.screenshot({ path, fullPage: true });
}

/** Escapes a value for use inside a double-quoted CSS attribute selector. */
function cssString(s) {
  return String(s).replace(/["\\]/g, '\\$&');
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
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));
page.on('dialog', (d) => d.dismiss().catch(() => {})); // a token prompt would mean the demo wants a token
try {
  await main(page, pageErrors);
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
