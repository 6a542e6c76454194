// Preloaded (`node --require`) by the install tests: the process believes it runs on the platform,
// CPU and Node.js version the environment names. Only npm's platform check and the project's
// Node.js version check are fooled, which is what these tests need: the other machines cannot run here.
'use strict';

const fakes = [
  [process, 'platform', process.env.FAKE_PLATFORM],
  [process, 'arch', process.env.FAKE_ARCH],
  [process.versions, 'node', process.env.FAKE_NODE_VERSION],
];
for (const [target, property, value] of fakes) {
  if (value) Object.defineProperty(target, property, { value });
}
