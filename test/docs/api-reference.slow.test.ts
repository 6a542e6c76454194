// The local server's API reference over plain HTTP (the page in a real browser is
// api-reference.browser.slow.test.ts): /openapi.json and /docs without a key, pointed at the server that
// answers them, int64 digits kept, the key only for a browser on this machine, other paths left to the
// gateway; the page's exact JSON; the static build of `npm run docs`; the browser of the browser tests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { GatewayRequest } from '#local/api-gateway/gateway.ts';
import { prettyJsonAsWritten, withWrittenIntegers } from '#local/server/api-reference-exact-json.js';
import { renderApiReference, writtenIntegers } from '#local/server/api-reference-page.ts';
import type { OpenApiDocument } from '#local/server/api-reference-page.ts';
import { withApiReference } from '#local/server/api-reference.ts';
import { parseJson } from '#shared/json.ts';
import { findBrowser, NO_BROWSER } from '#test/support/browser.ts';
import { runNpm } from '#test/support/npm.ts';
import { REPO_ROOT, readRepoFile, readRepoJson } from '#test/support/repository.ts';

const committed = readRepoJson('openapi.json') as OpenApiDocument;
const PAGE_KEY = 'k_page_only_for_loopback';
const INT64_MAX = '9223372036854775807';

describe('/docs and /openapi.json on the local server', () => {
  const running = {} as { url: string; apiKey: string; close(): Promise<void> };
  beforeAll(async () => {
    const [{ startLocalServer }, { sourceApiGateway }, { testApiKeys, testFunctions }] = await Promise.all([
      import('#local/server/http-server.ts'),
      import('#local/api-gateway/source-gateway.ts'),
      import('#test/support/test-table.ts'),
    ]);
    const gateway = withApiReference(sourceApiGateway(testFunctions), { apiKey: PAGE_KEY });
    const [server, { key }] = await Promise.all([
      startLocalServer({ gateway, port: 0 }),
      testApiKeys.issue('docs'),
    ]);
    Object.assign(running, { url: server.url, apiKey: key, close: server.close });
  });
  afterAll(() => running.close());

  it('serves the committed document without a key, its one server this server’s /v1', async () => {
    const response = await fetch(`${running.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    // The int64 bounds with their digits: JSON.parse and JSON.stringify would round them.
    expect(text.match(/"maximum":\d{19}/g)).toEqual(Array(3).fill(`"maximum":${INT64_MAX}`));
    const { servers, ...rest } = JSON.parse(text) as OpenApiDocument;
    const { servers: _committedServers, ...committedRest } = committed;
    expect(rest).toEqual(committedRest);
    expect(servers).toEqual([{ url: `${running.url}/v1`, description: 'This local server' }]);
  });

  it('serves the page without a key, with a policy that allows nothing remote', async () => {
    const response = await fetch(`${running.url}/docs?any=query`);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'unsafe-inline'",
        "style-src 'unsafe-inline'",
        'img-src data:',
        "connect-src 'self'",
      ]),
    );
    expect(policy).not.toMatch(/https?:|\*|'unsafe-eval'/);
    const page = await response.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain(JSON.stringify(`${running.url}/v1`));
    expect(page).toContain(JSON.stringify(PAGE_KEY));
    expect(page).toContain(`"maximum":${INT64_MAX}`);
  });

  it.each(['/docs', '/openapi.json'])('answers HEAD %s as GET, without the body', async (path) => {
    const [get, head] = await Promise.all([
      fetch(`${running.url}${path}`),
      fetch(`${running.url}${path}`, { method: 'HEAD' }),
    ]);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'content-length', 'content-security-policy']) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
  });

  it.each([
    ['POST', '/docs'],
    ['PUT', '/openapi.json'],
    ['DELETE', '/docs'],
  ])('answers %s %s with the API’s 405 Error and Allow', async (method, path) => {
    const response = await fetch(`${running.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      code: 'method_not_allowed',
      message: expect.any(String),
      status: 405,
    });
  });

  it('leaves /v1 and every other path to the gateway: a key is still needed', async () => {
    expect((await fetch(`${running.url}/v1/pets`)).status).toBe(401);
    const keyed = await fetch(`${running.url}/v1/pets`, {
      headers: { Authorization: `Bearer ${running.apiKey}` },
    });
    expect(keyed.status).toBe(200);
    for (const path of ['/v1/docs', '/v1/openapi.json', '/docs/', '/docs.html']) {
      expect({ path, status: (await fetch(`${running.url}${path}`)).status }).toEqual({ path, status: 401 });
    }
  });

  it('points at the Host the browser asked for, and holds no key for a name that is not loopback', async () => {
    // A page of another site that rebinds its name to 127.0.0.1 reaches this server from loopback.
    const { port } = new URL(running.url);
    const page = await new Promise<string>((resolve, reject) => {
      const sent = httpRequest(
        { port, path: '/docs', headers: { Host: 'rebound.example.test:8080' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      sent.on('error', reject).end();
    });
    expect(page).toContain(JSON.stringify('http://rebound.example.test:8080/v1'));
    expect(page).not.toContain(PAGE_KEY);
  });
});

describe('withApiReference, as a gateway', () => {
  const passedOn: GatewayRequest[] = [];
  const answered: APIGatewayProxyResult = { statusCode: 418, headers: {}, body: 'from the gateway' };
  const gateway = async (request: GatewayRequest) => {
    passedOn.push(request);
    return answered;
  };
  const request = (overrides: Partial<GatewayRequest>): GatewayRequest => ({
    method: 'GET',
    target: '/docs',
    headers: [['Host', '127.0.0.1:3000']],
    body: Buffer.alloc(0),
    bodyBytes: 0,
    sourceIp: '127.0.0.1',
    requestId: 'test',
    ...overrides,
  });
  const reference = withApiReference(gateway, { apiKey: PAGE_KEY });
  const servedServers = async (wrapped: typeof reference, headers: [string, string][]) => {
    const answer = await wrapped(request({ target: '/openapi.json', headers }));
    return (JSON.parse(answer.body) as OpenApiDocument).servers;
  };

  it.each([
    ['127.0.0.1', '127.0.0.1:3000'],
    ['127.12.0.9', 'localhost:3000'],
    ['::1', '[::1]:3000'],
    ['::ffff:127.0.0.1', '127.0.0.1:3000'],
  ])('pre-fills the key for a browser at %s asking for %s', async (sourceIp, host) => {
    const answer = await reference(request({ sourceIp, headers: [['host', host]] }));
    expect(answer.body).toContain(JSON.stringify(PAGE_KEY));
  });

  it.each(['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1', '128.0.0.1'])(
    'holds no key for a browser at %s: the Authorize button is one click away instead',
    async (sourceIp) => {
      const answer = await reference(request({ sourceIp, headers: [['Host', '192.168.1.2:3000']] }));
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(PAGE_KEY);
      expect(answer.body).toContain('"securitySchemes":{"bearerAuth"');
    },
  );

  it('falls back to the given base URL without a usable Host', async () => {
    const withBase = withApiReference(gateway, { apiKey: PAGE_KEY, baseUrl: 'http://127.0.0.1:3999' });
    expect(await servedServers(withBase, [])).toEqual([
      { url: 'http://127.0.0.1:3999/v1', description: 'This local server' },
    ]);
    for (const host of ['user@evil.test', 'evil.test/path', 'a b']) {
      expect(await servedServers(withBase, [['Host', host]])).toEqual([
        { url: 'http://127.0.0.1:3999/v1', description: 'This local server' },
      ]);
    }
    expect(await servedServers(reference, [])).toEqual([{ url: '/v1', description: 'This local server' }]);
  });

  it('passes every other request on unchanged, and answers it with what the gateway says', async () => {
    const sent = request({ method: 'POST', target: '/v1/pets?x=1', body: Buffer.from('{}'), bodyBytes: 2 });
    expect(await reference(sent)).toBe(answered);
    expect(passedOn.at(-1)).toBe(sent);
  });

  it('reads the document on each request, so a regenerated one shows without a restart', async () => {
    let version = 0;
    const readDocument = async () => ({ ...committed, info: { title: 'Pets', version: `1.0.${version++}` } });
    const live = withApiReference(gateway, { apiKey: PAGE_KEY, readDocument });
    expect((await live(request({}))).body).toContain('<title>Pets 1.0.0: API reference</title>');
    expect((await live(request({}))).body).toContain('<title>Pets 1.0.1: API reference</title>');
  });

  it('answers a document it cannot read with the API’s 500 Error', async () => {
    const broken = withApiReference(gateway, {
      apiKey: PAGE_KEY,
      readDocument: () => Promise.reject(new Error('ENOENT')),
    });
    const answer = await broken(request({ target: '/openapi.json' }));
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'internal_error', status: 500 });
  });
});

describe('the page', () => {
  it('inlines every text so that nothing in it can end its script or style early', () => {
    const hostile = '</script><script>window.injected = 1</script><!-- <SCRIPT> </style> </SCRIPT >';
    const page = renderApiReference({
      document: { ...committed, info: { title: `</title>${hostile}`, version: '1', description: hostile } },
      apiKey: hostile,
    });
    // Only the real end tags: the two scripts', the style's and the title's.
    expect(page.match(/<\/script/gi)).toHaveLength(2);
    expect(page.match(/<\/style/gi)).toHaveLength(1);
    expect(page.match(/<\/title/gi)).toHaveLength(1);
    expect(page).not.toContain('<!--');
    // Outside the inlined texts the page names no resource but data: ones.
    const markup = page.replace(/<(script|style)( type="module")?>[^]*?<\/\1>/g, '');
    expect(markup.match(/\s(src|href)="[^"]*"/g)).toEqual([' href="data:,"']);
  });
});

describe('the page’s JSON with its digits', () => {
  const texts = [
    '{"id":1,"name":"Rex","tags":[],"owner":{},"nested":[{"a":[1,2,{"b":null}]},true,false]}',
    ' [ "a, b: {c} [d]", "quote \\" and \\\\", -0.5 ,{ "x" : { } } ] ',
    '"just a string"',
    '42',
  ];

  it.each(texts)('lays out %s as JSON.stringify(value, null, 2) does', (text) => {
    expect(prettyJsonAsWritten(text)).toBe(JSON.stringify(JSON.parse(text), null, 2));
  });

  it('keeps each number as it was written, and refuses what is not JSON', () => {
    const text = `{"categoryId":${INT64_MAX},"small":-9007199254740993,"float":1.50,"exp":1E400}`;
    expect(prettyJsonAsWritten(text)).toBe(
      `{\n  "categoryId": ${INT64_MAX},\n  "small": -9007199254740993,\n  "float": 1.50,\n  "exp": 1E400\n}`,
    );
    for (const bad of ['', '{', '{"a":1,}', '[1 2]', 'undefined']) {
      expect(() => prettyJsonAsWritten(bad)).toThrow(SyntaxError);
    }
  });

  it('puts back the digits of the document’s integers beyond 2^53, outside quoted strings only', () => {
    const document = { maximum: BigInt(INT64_MAX), nested: [{ minimum: -(2n ** 60n) }], id: 12n, ratio: 0.5 };
    const written = writtenIntegers(document);
    expect(written).toEqual([
      ['9223372036854776000', INT64_MAX],
      ['-1152921504606847000', '-1152921504606846976'],
    ]);
    expect(withWrittenIntegers('[1, 9223372036854776000] "9223372036854776000"', new Map(written))).toBe(
      `[1, ${INT64_MAX}] "9223372036854776000"`,
    );
    // Two integers that round alike: neither is sure, so the rounded text stays.
    expect(writtenIntegers([BigInt(INT64_MAX), 2n ** 63n, 2n ** 62n])).toEqual([
      ['4611686018427388000', '4611686018427387904'],
    ]);
  });
});

describe('npm run docs', () => {
  it('writes the page with the document’s own servers and no key, and says where and how large', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-docs-'));
    try {
      const file = join(dir, 'site', 'reference.html');
      const run = await runNpm(['run', '--silent', 'docs', '--', '--out', file], { cwd: REPO_ROOT });
      const page = readFileSync(file, 'utf8');
      const exact = parseJson(readRepoFile('openapi.json')) as OpenApiDocument;
      expect(page).toBe(renderApiReference({ document: exact }));
      expect(page).toContain('9223372036854775807');
      const megabytes = (Buffer.byteLength(page) / 1024 / 1024).toFixed(1);
      expect(run).toEqual({ code: 0, stdout: `Wrote ${file} (${megabytes} MB)\n`, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([['--bogus'], ['--out'], ['extra', 'args']])('stops on %s with the usage line', async (...args) => {
    const run = await runNpm(['run', '--silent', 'docs', '--', ...args], { cwd: REPO_ROOT });
    expect(run).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^usage: npm run docs .*\n$/) });
  });

  it('prints the usage line for --help', async () => {
    const run = await runNpm(['run', '--silent', 'docs', '--', '--help'], { cwd: REPO_ROOT });
    expect(run).toEqual({ code: 0, stdout: expect.stringMatching(/^usage: npm run docs .*\n$/), stderr: '' });
  });
});

describe('the browser of the browser tests', () => {
  const none = () => false;

  it('is the npm package’s Chromium on Linux x64 and arm64', () => {
    expect(findBrowser({ platform: 'linux', arch: 'x64', env: {}, exists: none })).toEqual({ bundled: true });
    expect(findBrowser({ platform: 'linux', arch: 'arm64', env: {}, exists: none })).toEqual({
      bundled: true,
    });
  });

  it('is an installed Chrome or Edge on macOS and Windows', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(
      findBrowser({ platform: 'darwin', arch: 'arm64', env: {}, exists: (path) => path === chrome }),
    ).toEqual({ executablePath: chrome });
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const env = { PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)' };
    expect(findBrowser({ platform: 'win32', arch: 'x64', env, exists: (path) => path === edge })).toEqual({
      executablePath: edge,
    });
  });

  it('is the one PETSTORE_BROWSER names, on any platform', () => {
    const env = { PETSTORE_BROWSER: '/opt/chrome/chrome' };
    expect(findBrowser({ platform: 'linux', arch: 'x64', env, exists: () => true })).toEqual({
      executablePath: '/opt/chrome/chrome',
    });
    expect(() => findBrowser({ platform: 'linux', arch: 'x64', env, exists: none })).toThrow(
      'PETSTORE_BROWSER names /opt/chrome/chrome, which does not exist.',
    );
  });

  it.each(['darwin', 'win32'] as const)(
    'fails on %s without one, in one line that says what to do',
    (platform) => {
      expect(() => findBrowser({ platform, arch: 'x64', env: {}, exists: none })).toThrow(NO_BROWSER);
      expect(NO_BROWSER).not.toContain('\n');
    },
  );
});
