// Dead code held in `npm run lint`: no file, export or dependency that nothing uses. The entries below
// are the files that run without an import naming them; each exception says why it is one.
/** @type {import('knip').KnipConfig} */
export default {
  workspaces: {
    '.': {
      entry: [
        // The CDK app, which cdk.json's "app" runs.
        'bin/app.ts',
        // Each function's module is an esbuild entry point that functions/manifests.ts names by path.
        'functions/*.ts',
        // Test fixtures run as processes, bundles or jest runs of their own, never imported.
        'test/ci/test-run.fixture.ts',
        'test/e2e/remote.e2e.ts',
        'test/client/packed/*.{ts,mjs}',
        'test/install/fake-runtime.cjs',
        'test/local/start-stage/forbidden-read-handler.ts',
        'test/scripts/keys/recorded-server.ts',
      ],
      ignoreDependencies: [
        // test/docs/aws-commands.test.ts loads each service's SDK client by a name the runbook gives.
        '@aws-sdk/client-cloudwatch',
        '@aws-sdk/client-cloudwatch-logs',
        '@aws-sdk/client-iam',
        '@aws-sdk/client-kms',
        '@aws-sdk/client-sns',
        '@aws-sdk/client-sts',
        // Run by path (node_modules/@redocly/cli/bin/cli.js) in test/scripts/openapi/lint.slow.test.ts.
        '@redocly/cli',
        // Read by a computed path (require.resolve of each file) in local/server/api-reference-page.ts.
        'swagger-ui-dist',
      ],
      // The AWS CloudFormation Linter is a Python tool on the PATH (pip install cfn-lint), no npm package.
      ignoreBinaries: ['cfn-lint'],
    },
    client: {},
    bench: {
      entry: [
        // Bundled and measured by path (subjects.ts) or by alias (processes/bundles.ts), or run as a child
        // process (soak.ts).
        'baselines/*.ts',
        'floors/sdk-free-client.ts',
        'rss-probe.ts',
      ],
    },
  },
};
