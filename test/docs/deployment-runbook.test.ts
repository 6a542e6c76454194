// The runbook's commands act where the stage lives and say what the stack says: every AWS CLI and
// sam command in docs/deployment.md names the stage's region, read from cdk.json's setting with
// `npm run stage-region`, and nothing moves a stage with `-c <stage>:region`; the authorizer's
// token pattern it quotes is the one the template carries.
import { describe, expect, it } from '@jest/globals';
import { AUTHORIZER } from '#shared/http/routes.ts';
import { readRepoFile } from '#test/support/repository.ts';

const runbook = readRepoFile('docs/deployment.md');

/** Each line of the runbook's shell blocks (joined across `\`), and each inline code span outside blocks. */
function commands(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.replace(/\\\n\s*/g, ' ').split('\n')) {
    const opening = /^\s*```(\w*)/.exec(line);
    if (opening) fence = fence === undefined ? opening[1] : undefined;
    else if (fence === 'sh') found.push(line.trim());
    else if (fence === undefined)
      found.push(...[...line.matchAll(/`([^`]+)`/g)].map(([, code = '']) => code.trim()));
  }
  return found;
}

describe('docs/deployment.md', () => {
  const lines = commands(runbook);

  it('names the region in every AWS CLI and sam command', () => {
    const aws = lines.filter((line) => /^(aws|sam local) /.test(line) && / --/.test(line));
    expect(aws.length).toBeGreaterThan(10);
    expect(aws.filter((line) => !line.includes('--region "$REGION"'))).toEqual([]);
  });

  it("reads that region from cdk.json's setting, through npm run stage-region", () => {
    const assignments = lines.filter((line) => line.startsWith('REGION='));
    expect(assignments.length).toBeGreaterThan(0);
    for (const assignment of assignments)
      expect(assignment).toMatch(/^REGION=\$\(npm run --silent stage-region -- (staging|production)\)/);
  });

  it('never moves a stage with -c <stage>:region, nor sends the workflow a region variable', () => {
    expect(runbook).not.toMatch(/-c (staging|production):region/);
    expect(runbook).not.toMatch(/`AWS_REGION` \(the stages' region/);
  });

  it("quotes the authorizer's token pattern as the template has it", () => {
    const [, quoted] = /validation regex\s+`([^`]+)`/.exec(runbook) ?? [];
    expect(quoted).toBe(AUTHORIZER.validationRegex);
  });
});
