// `npm run soak [-- --minutes <n> | --quick]`: listPets at full speed against `npm start` (its own
// process and embedded DynamoDB) for 5 minutes, printing the server's RSS as it goes. It holds when
// the RSS stays within 50 MB of its level after the first fifth of the run, and no request fails;
// else it exits 1. --quick runs seconds, to prove the soak works: its memory is not judged.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { NEW_PET } from '#bench/processes/events.ts';
import { HEADERS, LOAD, startLocalServer, stopLocalServer } from '#bench/load.ts';
import { PROJECT_ROOT } from '#bench/subjects.ts';

/** The RSS may move this much above its level after the warm-up, and no more. */
const ALLOWED_GROWTH_MB = 50;
/** Enough available pets that both listings read full pages (21 items). */
const SEEDED_PETS = 100;
/** Both Queries of listPets: on the table, and on the status index. */
const LISTINGS = ['/v1/pets', '/v1/pets?status=available'];
/** How long the server idles after the load, before its last reading: less on a short run. */
const IDLE_SECONDS = 10;

/** Long enough for every step and a few readings, too short to say anything about memory. */
const QUICK_SECONDS = 5;

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '5' }, quick: { type: 'boolean' } },
});
const minutes = values.quick ? QUICK_SECONDS / 60 : Number(values.minutes);
if (!(minutes > 0)) {
  console.error(`petstore: --minutes ${values.minutes} is not a number of minutes above 0.`);
  process.exit(2);
}
const durationSeconds = Math.round(minutes * 60);
const warmUpSeconds = durationSeconds / 5;
const sampleEverySeconds = Math.min(10, durationSeconds / 10);
const idleSeconds = Math.min(IDLE_SECONDS, durationSeconds / 5);

async function readRssMb(server: ChildProcess) {
  server.send('rss');
  const [message] = (await once(server, 'message')) as [{ rss: number }];
  return message.rss / 2 ** 20;
}

const mb = (value: number) => `${value.toFixed(0)} MB`;
const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

const probe = pathToFileURL(join(PROJECT_ROOT, 'bench/rss-probe.ts')).href;
const server = await startLocalServer({ nodeOptions: ['--import', probe], ipc: true });
function stoppedEarly(code: number | null, signal: NodeJS.Signals | null) {
  console.error(`soak: the local server stopped during the run (${signal ?? `exit code ${code}`}).`);
  process.exit(1);
}
server.process.once('exit', stoppedEarly);
try {
  const origin = new URL(server.url).origin;
  const body = JSON.stringify(NEW_PET);
  for (let i = 0; i < SEEDED_PETS; i++) {
    const created = await fetch(`${server.url}/pets`, { method: 'POST', headers: HEADERS, body });
    if (created.status !== 201) throw new Error(`seeding: POST /v1/pets answered ${created.status}`);
  }
  console.log(
    `soak: GET ${LISTINGS.join(' and ')} at full speed (${LOAD.connections} connections) for ` +
      `${clock(durationSeconds)} against npm start, ${SEEDED_PETS} pets; the server's RSS:`,
  );
  console.log(`  ${clock(0)}  ${mb(await readRssMb(server.process))}  (seeded, before the load)`);

  const started = performance.now();
  const samples: { at: number; rssMb: number }[] = [];
  const sampling = (async () => {
    for (let at = sampleEverySeconds; at < durationSeconds; at += sampleEverySeconds) {
      await sleep(started + at * 1000 - performance.now());
      const rssMb = await readRssMb(server.process);
      samples.push({ at, rssMb });
      console.log(`  ${clock(at)}  ${mb(rssMb)}`);
    }
  })();
  const result = await autocannon({
    url: origin,
    connections: LOAD.connections,
    duration: durationSeconds,
    headers: HEADERS,
    requests: LISTINGS.map((path) => ({ method: 'GET', path })),
  });
  await sampling;
  const endMb = await readRssMb(server.process);
  await sleep(idleSeconds * 1000);
  const idleMb = await readRssMb(server.process);

  const settled = samples.find(({ at }) => at >= warmUpSeconds) ?? { at: durationSeconds, rssMb: endMb };
  const highestMb = Math.max(endMb, ...samples.filter(({ at }) => at >= settled.at).map((s) => s.rssMb));
  const failures = result.non2xx + result.errors + result.timeouts;
  const grewTooMuch = !values.quick && highestMb - settled.rssMb > ALLOWED_GROWTH_MB;
  const holds = !grewTooMuch && failures === 0;
  console.log(
    [
      `requests: ${result.requests.total} (${result.requests.average.toFixed(0)}/s), failures: ${failures}`,
      `RSS at ${clock(settled.at)}: ${mb(settled.rssMb)}; at the end: ${mb(endMb)} ` +
        `(${endMb >= settled.rssMb ? '+' : ''}${mb(endMb - settled.rssMb)}); highest after ${clock(settled.at)}: ` +
        `${mb(highestMb)}; after ${idleSeconds} s idle: ${mb(idleMb)}`,
      holds
        ? values.quick
          ? 'soak ran (--quick: no request failed; memory is not judged on a run of seconds).'
          : `soak holds: the RSS stayed within ${ALLOWED_GROWTH_MB} MB of its level at ${clock(settled.at)}.`
        : failures > 0
          ? `soak fails: ${failures} requests failed.`
          : `soak fails: the RSS grew ${mb(highestMb - settled.rssMb)} past its level at ${clock(settled.at)} ` +
            `(${ALLOWED_GROWTH_MB} MB allowed).`,
    ].join('\n'),
  );
  process.exitCode = holds ? 0 : 1;
} finally {
  server.process.off('exit', stoppedEarly);
  await stopLocalServer(server);
}
