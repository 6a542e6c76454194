// Stops an npm script with one line when the Node.js running it is older than package.json's
// `engines.node`: the project's TypeScript runs as-is only on Node.js 24 (type stripping), and an older
// Node would fail with a stack trace about ".ts". CommonJS in old syntax, so that any Node.js can load it,
// as a preload (`node -r ./scripts/check-node-version.cjs entry.ts`) or on its own before other commands.
'use strict';

const { existsSync } = require('fs');
const { join } = require('path');
const { engines, optionalDependencies = {} } = require('../package.json');

const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines.node);
if (!minimum)
  throw new Error(`package.json engines.node must read ">=major[.minor[.patch]]", not "${engines.node}"`);

const required = minimum.slice(1).map((part) => Number(part || 0));

function isTooOld(version) {
  const parts = version.split('.').map(Number);
  const firstDifference = required.findIndex((part, index) => parts[index] !== part);
  return firstDifference !== -1 && parts[firstDifference] < required[firstDifference];
}

/** The version of the Node.js package in node_modules for this platform and CPU, if one is recent enough. */
function installedNode() {
  for (const name of Object.keys(optionalDependencies).filter((dependency) => /^node-/.test(dependency))) {
    const file = join(__dirname, '..', 'node_modules', name, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = require(file);
    const fits =
      (manifest.os || []).includes(process.platform) && (manifest.cpu || []).includes(process.arch);
    if (fits && !isTooOld(manifest.version)) return manifest.version;
  }
  return undefined;
}

// npm scripts run the Node.js 24 that `npm ci` installs in node_modules (an optional dependency per
// platform), so an old one here is mostly a bare `node`: the advice is then npm or `npx node`, which take
// that one, and installing Node.js only where node_modules has none for this machine.
if (isTooOld(process.versions.node)) {
  const installed = installedNode();
  const advice = installed
    ? `run it through npm (\`npm start\`, \`npm run …\`) or \`npx node\`, which use the Node.js ${installed} that npm installed in node_modules.`
    : 'install it (`nvm install` reads .nvmrc) and run the command again.';
  process.stderr.write(
    `This project needs Node.js ${required.join('.')} or later, and this is Node.js ${process.versions.node}: ${advice}\n`,
  );
  process.exit(1);
}
