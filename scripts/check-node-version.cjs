// Stops an npm script with one line when the Node.js running it is older than package.json's
// `engines.node`. The project's TypeScript runs as-is only on Node.js 24 (type stripping, the
// runtime Lambda uses), and an older Node would fail with a stack trace about ".ts" instead.
// CommonJS in old syntax, so that any Node.js can load it: as a preload before the entry point
// (`node -r ./scripts/check-node-version.cjs entry.ts`), or on its own before other commands.
'use strict';

const { engines } = require('../package.json');

const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines.node);
if (!minimum)
  throw new Error(`package.json engines.node must read ">=major[.minor[.patch]]", not "${engines.node}"`);

const required = minimum.slice(1).map((part) => Number(part || 0));
const running = process.versions.node.split('.').map(Number);
const firstDifference = required.findIndex((part, index) => running[index] !== part);
const tooOld = firstDifference !== -1 && running[firstDifference] < required[firstDifference];

if (tooOld) {
  process.stderr.write(
    `This project needs Node.js ${required.join('.')} or later, and this is Node.js ${process.versions.node}: ` +
      'install it (`nvm install` reads .nvmrc) and run the command again.\n',
  );
  process.exit(1);
}
