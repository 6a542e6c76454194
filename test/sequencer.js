// The order jest starts test files in. Jest runs the longest first by the durations it recorded. A
// fresh clone (CI) has none, and jest's fallback, the largest file first, starts last a short file
// that runs a long suite from beside it; so, without durations: the full tier first, each file
// weighed with the modules it imports from its own folder.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import Sequencer from '@jest/test-sequencer';
import { importsOf, packageImports, testTiers } from './tiers.ts';

/** The bytes of a test file and of what it imports, however far, from its own folder. */
function weight(file, resolveAlias, folder = dirname(file), seen = new Set()) {
  if (seen.has(file)) return 0;
  seen.add(file);
  const own = importsOf(file, resolveAlias).targets.filter((target) => dirname(target) === folder);
  return (
    statSync(file).size + own.reduce((sum, target) => sum + weight(target, resolveAlias, folder, seen), 0)
  );
}

export default class TierSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration !== undefined)) return sorted;
    const root = sorted[0]?.context.config.rootDir ?? process.cwd();
    const slashed = root.split('\\').join('/');
    const full = new Set([...testTiers(root).full.keys()].map((file) => `${slashed}/${file}`));
    const resolveAlias = packageImports();
    const rank = (test) =>
      (full.has(test.path.split('\\').join('/')) ? 2 ** 40 : 0) + weight(test.path, resolveAlias);
    const ranks = new Map(sorted.map((test) => [test, rank(test)]));
    return sorted.toSorted((a, b) => ranks.get(b) - ranks.get(a));
  }
}
