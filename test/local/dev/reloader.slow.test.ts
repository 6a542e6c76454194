// `npm run dev` as a user runs it, on a temporary copy of the sources that the test edits as a user
// would: a saved change goes live, data in memory and the key survive it, no request is refused while
// it reloads, an edit that does not load leaves the previous code serving, and every save counts, in
// place or as a new file renamed over the old one (`sed -i`, many editors), which replaces the inode.
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** What `npm run dev` loads: the sources, the scripts' version check, the document and the package. */
const COPIED = ['functions', 'shared', 'local', 'scripts', 'package.json', 'openapi.json'];
const HANDLER = join('functions', 'get-pet.ts');
const NOT_FOUND_MESSAGE = 'petId: no animal has id ${path.petId}';

/** The message of getPet's 404, which the tests edit. */
async function missingPetMessage(url: string, key: string) {
  const response = await fetch(`${url}/v1/pets/999`, { headers: { Authorization: `Bearer ${key}` } });
  return ((await response.json()) as { message: string }).message;
}

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'petstore-dev-'));
  for (const entry of COPIED) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'junction');
});
afterEach(killScripts);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function editHandler(edit: (source: string) => string) {
  const file = join(copy, HANDLER);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

/** An atomic save: the new text goes to a temporary file that is renamed over the original. */
function saveHandlerByRename(edit: (source: string) => string) {
  const file = join(copy, HANDLER);
  const temporary = join(copy, 'functions', 'sedX1b2c3');
  writeFileSync(temporary, edit(readFileSync(file, 'utf8')));
  renameSync(temporary, file);
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('npm run dev', () => {
  it('reloads a saved handler within about a second, keeping data and key, refusing no request', async () => {
    const dev = runScript(join(copy, 'local', 'dev.ts'), [], { PORT: '0' });
    const url = await bannerUrl(dev);
    const [, key] = await dev.waitFor(/API key: +(psk_\S+)/);
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers,
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.status).toBe(201);
    const pet: unknown = await created.json();
    const missingMessage = () => missingPetMessage(url, key ?? '');
    expect(await missingMessage()).toBe('petId: no animal has id 999');

    // Requests keep flowing through the reload: every one is answered, none refused.
    let flowing = true;
    const statuses: number[] = [];
    const traffic = (async () => {
      while (flowing) statuses.push((await fetch(`${url}/v1/pets`, { headers })).status);
    })();
    const saved = performance.now();
    editHandler((source) => source.replace(NOT_FOUND_MESSAGE, 'petId: no animal here has id ${path.petId}'));
    await until(
      async () => ((await missingMessage()) === 'petId: no animal here has id 999' ? true : undefined),
      'the edit to be live',
    );
    const liveAfterMs = performance.now() - saved;
    flowing = false;
    await traffic;
    expect(liveAfterMs).toBeLessThan(5_000); // only bounds a hang: how fast it reloads is the bench's
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(dev.output()).toMatch(/^dev: functions\/get-pet\.ts changed; reloaded in \d+ ms$/m);

    // The pet made before the edit is there, under the same key.
    const again = await fetch(`${url}/v1/pets/1`, { headers });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(pet);
  });

  it('keeps the previous code serving when an edit does not load, and takes the fix', async () => {
    const dev = runScript(join(copy, 'local', 'dev.ts'), [], { PORT: '0', PETSTORE_API_KEY: 'k_dev' });
    const url = await bannerUrl(dev);
    const get = () => fetch(`${url}/v1/pets/1`, { headers: { Authorization: 'Bearer k_dev' } });
    const before = await get();
    expect(before.status).toBe(404);

    editHandler((source) => `${source}\nexport const broken = ;\n`);
    const [line] = await dev.waitFor(/^dev: functions\/get-pet\.ts changed; it does not load.*$/m);
    expect(line).toMatch(/the previous code still serves: .*get-pet\.ts/);
    expect((await get()).status).toBe(404);

    editHandler((source) => source.replace('\nexport const broken = ;\n', ''));
    await dev.waitFor(/changed; reloaded in \d+ ms/);
    expect((await get()).status).toBe(404);
    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
  });

  it('reloads every save, in place or renamed over the file, twice each', async () => {
    const dev = runScript(join(copy, 'local', 'dev.ts'), [], { PORT: '0', PETSTORE_API_KEY: 'k_dev' });
    const url = await bannerUrl(dev);
    const saves = [
      ['renamed', saveHandlerByRename],
      ['renamed', saveHandlerByRename],
      ['in place', editHandler],
      ['in place', editHandler],
    ] as const;
    for (const [index, [how, save]] of saves.entries()) {
      const words = `no animal (save ${index + 1}, ${how}) has id`;
      save((source) => source.replace(/petId: no animal[^`]* has id/, `petId: ${words}`));
      await until(
        async () => ((await missingPetMessage(url, 'k_dev')) === `petId: ${words} 999` ? true : undefined),
        `save ${index + 1} (${how}) to be live`,
      );
    }
    const reloads = dev.output().match(/^dev: functions\/get-pet\.ts changed; reloaded in \d+ ms$/gm);
    expect(reloads?.length).toBeGreaterThanOrEqual(saves.length);
  });
});
