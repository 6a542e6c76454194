// The order jest starts test files in. Jest runs the longest first by the durations it recorded; a
// fresh clone (CI) has none, and jest's fallback, the largest file first, would start a slow test
// last: so, without durations, the slow tier first, each tier largest first.
import Sequencer from '@jest/test-sequencer';

const isSlow = (test) => test.path.endsWith('.slow.test.ts');

export default class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration !== undefined)) return sorted;
    return sorted.toSorted((a, b) => Number(isSlow(b)) - Number(isSlow(a)));
  }
}
