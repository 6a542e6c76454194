// The commit a run measured, kept with its figures: `-dirty` when the tree had uncommitted changes,
// `unknown` outside a Git checkout.
import { execFileSync } from 'node:child_process';

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: 'pipe' }).trim();

export function measuredCommit(): string {
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? '-dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}
