// The contract suite against `npm run start:stage -- staging` (stage-suite.ts). Under staging's 5
// requests a second per key, the suite's client waits out every 429.
import { defineStageSuite } from '#test/e2e/stage-suite.ts';

defineStageSuite('staging');
