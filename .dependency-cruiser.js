// The architecture, held in `npm run lint`: each layer imports only the layers below it (shared,
// then functions, then lib; local and scripts on top), tools and tests stay out of the product, and
// nothing imports in a circle. Type-only imports count: a circle of types still ties the layers.
const FOLDERS_OUTSIDE = (allowed) =>
  `^(${['shared', 'functions', 'lib', 'bin', 'local', 'scripts', 'bench', 'test', 'client']
    .filter((folder) => !allowed.includes(folder))
    .join('|')})/`;

/** A rule that `from` imports no project folder but `allowed`. */
const layer = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: `^${from}/` },
  to: { path: FOLDERS_OUTSIDE(allowed) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    layer(
      'shared-imports-only-shared',
      'shared',
      ['shared'],
      'shared/ is the bottom layer: the Lambda runtime code every function and tool builds on.',
    ),
    {
      ...layer(
        'functions-import-functions-and-shared',
        'functions',
        ['functions', 'shared'],
        'A function bundle holds its own module and shared/, nothing of the stack or the tools.',
      ),
      from: { path: '^functions/', pathNot: '^functions/probe/' },
    },
    {
      ...layer(
        'probe-imports-functions-shared-and-the-client-source',
        'functions/probe',
        ['functions', 'shared'],
        "The probe is a store client: it reads the API's Link headers as the client package does.",
      ),
      to: { path: FOLDERS_OUTSIDE(['functions', 'shared']), pathNot: '^client/src/' },
    },
    layer(
      'lib-imports-the-product',
      'lib',
      ['lib', 'functions', 'shared'],
      'The CDK app deploys the product: it never runs the local server, the scripts or the bench.',
    ),
    layer(
      'bin-imports-lib',
      'bin',
      ['bin', 'lib', 'functions', 'shared'],
      'The CDK entry point builds the app of lib/ and nothing else.',
    ),
    layer(
      'local-imports-the-product',
      'local',
      ['local', 'lib', 'functions', 'shared'],
      'The local server serves the product; the scripts, the bench and the tests use it, never the reverse.',
    ),
    layer(
      'scripts-import-the-product-and-local',
      'scripts',
      ['scripts', 'local', 'lib', 'functions', 'shared'],
      'The npm scripts are the top of the product; the bench and the tests are not part of it.',
    ),
    layer(
      'client-is-its-own-package',
      'client',
      ['client'],
      'The published client ships alone: it imports nothing of the service.',
    ),
    layer(
      'bench-imports-the-product-local-and-the-client',
      'bench',
      ['bench', 'local', 'lib', 'functions', 'shared', 'client'],
      'The bench measures the product as the local server runs it, and the client as a store uses it; the tests are not its to take.',
    ),
    {
      ...layer(
        'tests-import-no-bench',
        'test',
        ['test', 'scripts', 'local', 'bin', 'lib', 'functions', 'shared', 'client'],
        "The product's tests test the product: the bench is a tool with tests of its own.",
      ),
      // Two of the bench's files serve tests honestly: the docs tests check the prices the docs quote,
      // and the store's tests count its DynamoDB requests with the recorder. Neither runs the bench.
      to: { path: '^bench/', pathNot: '^bench/(cost-basis|dynamodb/recorder)\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'A circle makes two modules one: neither can be read, tested or moved without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|dist|coverage|\\.out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
