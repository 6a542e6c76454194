// The findings of the app's validation plugins (cdk-nag), as one line each. Run by the CDK CLI, an
// app writes them to its assembly's validation-report.json and still exits 0, and this CLI does not
// read the file, so `cdk synth` would pass with findings: the app reads them here and fails instead.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type ValidationReport = {
  pluginReports: {
    pluginName: string;
    conclusion: 'success' | 'failure';
    violations: { ruleName: string; description: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
};

/** `<plugin>: <rule> on <construct path>: <description>`, for each finding of a failed plugin. */
export function validationFailures(assemblyDir: string): string[] {
  const file = join(assemblyDir, 'validation-report.json');
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as ValidationReport;
  return report.pluginReports
    .filter(({ conclusion }) => conclusion === 'failure')
    .flatMap(({ pluginName, violations }) =>
      violations.flatMap(({ ruleName, description, violatingConstructs }) =>
        violatingConstructs.map(
          ({ constructPath }) => `${pluginName}: ${ruleName} on ${constructPath}: ${description}`,
        ),
      ),
    );
}
