// Not a test of its own (jest's testMatch leaves it out): test-run.slow.test.ts runs this fixture through
// jest, as `npm test` runs any test file. It does what tests do that can leave something behind: it
// makes a temporary directory (as a CDK synthesis does) and starts a server that it then kills hard,
// so that the server's record of itself is never removed by the server.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, it } from '@jest/globals';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

afterEach(killScripts);

it('makes a temporary directory and starts a server, which is then killed', async () => {
  mkdtempSync(join(tmpdir(), 'petstore-cdk-'));
  const server = runScript('local/start.ts', [], { PORT: '0' });
  await bannerUrl(server);
  process.stdout.write(`server pid ${server.child.pid}\n`);
});
