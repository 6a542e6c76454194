// Runs npm's own CLI as a child process, with the Node that runs the tests. npm passes its CLI's
// path to the scripts it starts (npm_execpath), so `npm test` and `npm run jest` can find it on any
// platform without a shell.
import { runNode } from '#test/support/process.ts';
import type { NodeRun, NodeRunOptions } from '#test/support/process.ts';

function npmCliPath(): string {
  const cli = process.env.npm_execpath;
  if (!cli || !/\.c?js$/.test(cli)) {
    throw new Error('These tests run npm itself: start them with npm test or npm run jest.');
  }
  return cli;
}

// npm's own options first: after `npm run <script> --` they would be the script's arguments.
export const runNpm = (args: string[], options: NodeRunOptions): Promise<NodeRun> =>
  runNode([npmCliPath(), '--no-audit', '--no-fund', ...args], options);
