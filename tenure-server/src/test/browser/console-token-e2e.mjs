#!/usr/bin/env node
// The console of a node that requires a bearer token (docs/ADMIN-API.md: with a token set, every
// /api call needs it, reads too), in headless Chromium:
//  1. opened with #token=... in the URL: the token is kept for the session and taken out of the
//     address bar, and the page shows the node, no 401;
//  2. opened without it: the console asks once (the prompt is answered with the token) and then
//     shows the node; a wrong answer leaves the page saying the token was refused, asking no more.
//
//   node console-token-e2e.mjs http://127.0.0.1:8081 TOKEN
import { chromium } from 'playwright-core';

const [baseUrl, token] = process.argv.slice(2);
if (!baseUrl || !token) {
  console.error('usage: node console-token-e2e.mjs <console base URL> <token>');
  process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

class Failure extends Error {}

async function nodeShown(page) {
  await page.waitForFunction(() => /ACTIVE/.test(document.body.innerText), null, { timeout: 20_000 });
}

async function scenario(browser, url, answer) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const prompts = [];
  page.on('dialog', async (dialog) => {
    prompts.push(dialog.message());
    await dialog.accept(answer ?? '');
  });
  const unauthorized = [];
  page.on('response', (res) => {
    if (res.status() === 401) unauthorized.push(res.url());
  });
  await page.goto(url);
  return { context, page, prompts, unauthorized };
}

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    // 1. The token in the fragment.
    let s = await scenario(browser, `${baseUrl}/#token=${encodeURIComponent(token)}`, null);
    await nodeShown(s.page);
    if (s.unauthorized.length > 0) throw new Failure(`with #token, ${s.unauthorized.length} calls answered 401: ${s.unauthorized[0]}`);
    if (s.prompts.length > 0) throw new Failure(`with #token, the console asked for it: ${s.prompts[0]}`);
    if (s.page.url().includes('token=')) throw new Failure(`the token stayed in the address bar: ${s.page.url()}`);
    await s.context.close();
    console.log('console token e2e: #token= accepted, kept, and taken out of the URL');

    // 2. No token: one prompt, answered with the token.
    s = await scenario(browser, `${baseUrl}/`, token);
    await nodeShown(s.page);
    if (s.prompts.length !== 1) throw new Failure(`asked ${s.prompts.length} times for the token, not once`);
    await s.context.close();
    console.log('console token e2e: asked once, then showed the node');

    // 3. A wrong answer: asked once, then no more prompts while the polls go on.
    s = await scenario(browser, `${baseUrl}/`, 'wrong');
    await s.page.waitForTimeout(4_000);
    if (s.prompts.length !== 1) throw new Failure(`with a wrong token, asked ${s.prompts.length} times in 4 s, not once`);
    await s.context.close();
    console.log('console token e2e: a wrong token is asked for once, then the polls stop asking');
  } finally {
    await browser.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`console token e2e: FAILED: ${e instanceof Failure ? e.message : e.stack}`);
    process.exit(1);
  },
);
