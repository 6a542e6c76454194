// The API reference in a real browser (test/support/browser.ts): /docs of a real `npm start` renders
// the operations, pre-fills the key, makes try-it calls and shows int64 values with their digits and
// the error codes apart from the next column; the static file of `npm run docs` renders from disk. A
// request beyond this machine, a script error or a refusal by the page's policy fails the test.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'puppeteer-core';
import { renderApiReference } from '#local/server/api-reference-page.ts';
import type { OpenApiDocument } from '#local/server/api-reference-page.ts';
import { parseJson } from '#shared/json.ts';
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

/** The largest int64: JavaScript's numbers round it to 9223372036854776000. */
const INT64_MAX = '9223372036854775807';
const ROUNDED = String(Number(INT64_MAX));

async function click(page: Page, selector: string) {
  await (await page.waitForSelector(selector))?.click();
}

/** Try it out on an open operation: fills the fields (selector, text), executes; what the page shows. */
async function tryItOut(page: Page, operation: string, fields: [string, string][]) {
  const block = `#operations-pets-${operation}`;
  await click(page, `${block} .try-out__btn`);
  for (const [field, text] of fields) {
    const input = await page.waitForSelector(`${block} ${field}`);
    // Selected, the text typed replaces what the field held.
    await input?.evaluate((element) => (element as { select?: () => void }).select?.());
    await input?.type(text);
  }
  await click(page, `${block} .btn.execute`);
  await page.waitForSelector(`${block} .live-responses-table .response-col_status`);
  return page.$eval(block, (element) => {
    const titles = [...element.querySelectorAll('.live-responses-table h5')];
    const body = titles.find((title) => title.textContent === 'Response body')?.parentElement;
    return { body: body?.textContent ?? '', curl: element.querySelector('.curl')?.textContent ?? '' };
  });
}

/** An operation's request body schema, as the Schema tab shows it. */
async function requestSchema(page: Page, operation: string) {
  const section = `#operations-pets-${operation} .opblock-section-request-body`;
  await click(page, `${section} [data-name="model"]`);
  await page.waitForSelector(`${section} .json-schema-2020-12__constraint`);
  return page.$eval(section, (element) => element.textContent);
}

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

  it('shows an int64 categoryId beyond 2^53 with its digits: bound, sent, answered, read back', async () => {
    const { page, remote, errors } = await openPage(`${running.url}/docs`);
    await click(page, '#operations-pets-createPet .opblock-summary-control');
    const schema = await requestSchema(page, 'createPet');
    expect(schema).toContain(`[1, ${INT64_MAX}]`);

    const sent = `{"name":"Big","categoryId":${INT64_MAX}}`;
    const created = await tryItOut(page, 'createPet', [['textarea.body-param__text', sent]]);
    expect(created.curl).toContain(`-d '${sent}'`);
    expect(created.body).toContain(`"categoryId": ${INT64_MAX}`);
    const id = /"id": (\d+)/.exec(created.body)?.[1] ?? '';

    // Read back: the page showed the digits the API stored, so the request carried them too.
    await click(page, '#operations-pets-getPet .opblock-summary-control');
    const read = await tryItOut(page, 'getPet', [['input[placeholder="petId"]', id]]);
    expect(read.body).toMatch(new RegExp(`"id": ${id},[^]*"categoryId": ${INT64_MAX},`));
    expect([schema, created.body, read.body].join()).not.toContain(ROUNDED);
    expect(remote).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each([1280, 768, 390])(
    'keeps each error code apart from the next column, %i pixels wide',
    async (width) => {
      const { page } = await openPage(`${running.url}/docs`);
      await page.setViewport({ width, height: 900 });
      // The codes' table stands in the description of the API and in that of the Error schema.
      const error = await page.waitForSelector('section.models ::-p-text(Error)');
      await error?.click();
      await page.waitForSelector('.json-schema-2020-12-body table');
      const gaps = await page.$$eval('td > code', (codes) =>
        codes
          .filter((code) => code.textContent === 'unsupported_media_type')
          .map((code) => {
            const next = code.ownerDocument.createRange();
            next.selectNodeContents(code.parentElement?.nextElementSibling ?? code);
            return next.getBoundingClientRect().left - code.getBoundingClientRect().right;
          }),
      );
      expect(gaps).toHaveLength(2);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(8);
    },
  );
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

  it('shows the int64 examples of a document read with their digits, in the try-it editor too', async () => {
    type Operation = { requestBody: { content: Record<string, object> } };
    const exact = parseJson(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8')) as OpenApiDocument & {
      paths: Record<string, Record<string, Operation>>;
    };
    const newPet = exact.paths['/pets']?.post?.requestBody.content['application/json'];
    Object.assign(newPet ?? {}, { example: { name: 'Rex', categoryId: BigInt(INT64_MAX) } });
    const file = join(running.dir, 'examples.html');
    writeFileSync(file, renderApiReference({ document: exact }));
    const { page, remote, errors } = await openPage(pathToFileURL(file).href);
    await click(page, '#operations-pets-createPet .opblock-summary-control');
    const example = await page.waitForSelector(
      '#operations-pets-createPet .opblock-section-request-body pre',
    );
    const shown = `{\n  "name": "Rex",\n  "categoryId": ${INT64_MAX}\n}`;
    expect(await example?.evaluate((pre) => pre.textContent)).toBe(shown);
    await click(page, '#operations-pets-createPet .try-out__btn');
    const editor = await page.waitForSelector('#operations-pets-createPet textarea.body-param__text');
    expect(await editor?.evaluate((textarea) => (textarea as { value?: string }).value)).toBe(shown);
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
