// The API reference in a real browser (test/support/browser.ts): /docs of a real `npm start` renders
// the three operations, shows getPet as deprecated, pre-fills the key and makes a try-it call answered
// 200; the static file of `npm run docs` renders from disk. A request beyond this machine, a script
// error or a refusal by the page's security policy (reported on the console) fails the test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'puppeteer-core';
import { renderApiReference } from '#local/server/api-reference-page.ts';
import type { OpenApiDocument } from '#local/server/api-reference-page.ts';
import { launchBrowser } from '#test/support/browser.ts';
import { runNpm } from '#test/support/npm.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import type { ScriptRun } from '#test/support/process.ts';
import { REPO_ROOT, readRepoJson } from '#test/support/repository.ts';

const API_KEY = 'k_browser_docs';
const OPERATIONS = ['operations-pets-listPets', 'operations-pets-createPet', 'operations-pets-getPet'];
const committed = readRepoJson('openapi.json') as OpenApiDocument;

const running = {} as { browser: Browser; server: ScriptRun; url: string; dir: string };

beforeAll(async () => {
  running.dir = mkdtempSync(join(tmpdir(), 'petstore-browser-'));
  // The browser first: without one the tests fail at once, and no server is left behind.
  running.browser = await launchBrowser();
  running.server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_API_KEY: API_KEY });
  running.url = await bannerUrl(running.server);
}, 60_000);

afterAll(async () => {
  await running.browser?.close();
  killScripts();
  rmSync(running.dir, { recursive: true, force: true });
});

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A page that lets through only this machine, data: and blob: (and the file it opens), and keeps what
 * else it tried.
 */
async function openPage(address: string) {
  const page = await running.browser.newPage();
  const remote: string[] = [];
  const errors: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = new URL(request.url());
    const local =
      url.protocol === 'data:' ||
      url.protocol === 'blob:' ||
      (url.protocol === 'file:' && url.pathname === new URL(address).pathname) ||
      (/^https?:$/.test(url.protocol) && LOOPBACK_HOSTS.has(url.hostname));
    if (local) return void request.continue();
    remote.push(request.url());
    return void request.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(address);
  await page.waitForSelector(`#${OPERATIONS.at(-1)}`);
  return { page, remote, errors };
}

const operations = (page: Page) =>
  page.$$eval('.opblock', (blocks) =>
    blocks.map((block) => ({ id: block.id, classes: [...block.classList] })),
  );

const serverChoices = (page: Page) =>
  page.$$eval('.servers select option', (options) => options.map((option) => option.value));

const isAuthorized = (page: Page) =>
  page.$eval('.btn.authorize', (button) => button.classList.contains('locked'));

describe('/docs of npm start', () => {
  it('renders the operations, getPet deprecated, with the key pre-filled; try-it reaches the server', async () => {
    const { page, remote, errors } = await openPage(`${running.url}/docs`);
    const blocks = await operations(page);
    expect(blocks.map(({ id }) => id)).toEqual(OPERATIONS);
    expect(blocks.map(({ classes }) => classes.includes('opblock-deprecated'))).toEqual([false, false, true]);
    expect(await serverChoices(page)).toEqual([`${running.url}/v1`]);
    expect(await isAuthorized(page)).toBe(true);

    // As a user: open listPets, Try it out, Execute; the page shows the server's answer.
    for (const control of ['.opblock-summary-control', '.try-out__btn', '.btn.execute']) {
      await (await page.waitForSelector(`#operations-pets-listPets ${control}`))?.click();
    }
    const status = await page.waitForSelector(
      '#operations-pets-listPets .live-responses-table tbody .response-col_status',
    );
    expect(await status?.evaluate((cell) => cell.textContent?.trim())).toBe('200');
    const logged = await running.server.waitFor(/^\{.*"method":"GET","path":"\/v1\/pets".*\}$/m);
    expect(JSON.parse(logged[0])).toMatchObject({ status: 200 });

    expect(remote).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the static page of npm run docs', () => {
  it('renders the operations from a file, with the document’s servers, no key and nothing remote', async () => {
    const file = join(running.dir, 'api-reference.html');
    const run = await runNpm(['run', '--silent', 'docs', '--', '--out', file], { cwd: REPO_ROOT });
    expect(run.code).toBe(0);
    const { page, remote, errors } = await openPage(pathToFileURL(file).href);
    expect((await operations(page)).map(({ id }) => id)).toEqual(OPERATIONS);
    const servers = committed.servers as { url: string }[];
    expect(await serverChoices(page)).toEqual(servers.map(({ url }) => url));
    expect(await isAuthorized(page)).toBe(false);
    expect(remote).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows hostile text in the document as text', async () => {
    const hostile = '</script><script>window.injected = 1</script><!-- <script>';
    const file = join(running.dir, 'hostile.html');
    const info = { title: `</title>${hostile}`, version: '1', description: `Code: \`${hostile}\`` };
    writeFileSync(file, renderApiReference({ document: { ...committed, info } }));
    const { page, remote, errors } = await openPage(pathToFileURL(file).href);
    expect(await page.title()).toBe(`</title>${hostile} 1: API reference`);
    expect(await page.$eval('.info .description code', (code) => code.textContent)).toBe(hostile);
    expect(await page.evaluate(() => 'injected' in globalThis)).toBe(false);
    expect(remote).toEqual([]);
    expect(errors).toEqual([]);
  });
});
