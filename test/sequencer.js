// The order jest starts test files in. Jest runs the longest first by the durations it recorded; a
// fresh clone (CI) has none, and jest's fallback, the largest file first, would start a slow test
// last: so, without durations, the slow tier first, each tier largest first.
import Sequencer from '@jest/test-sequencer';

/** jest.config.js's slow project, which it fills by the files' names. */
const isSlow = (test) => test.context.config.displayName?.name === 'slow';

export default class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration !== undefined)) return sorted;
    return sorted.toSorted((a, b) => Number(isSlow(b)) - Number(isSlow(a)));
  }
}
