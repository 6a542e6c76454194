// The contract suite against `npm run start:stage -- production` (stage-suite.ts): production's
// cache, throttling and usage plan.
import { defineStageSuite } from '#test/e2e/stage-suite.ts';

defineStageSuite('production');
