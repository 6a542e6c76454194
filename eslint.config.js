// ESLint for every file: the recommended and strict TypeScript rules, plus the few this project adds.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'coverage/', 'bench/.out/', 'client/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    // The few plain JavaScript files (the Node.js version check, test fixtures) run on Node.js.
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // CommonJS on purpose: any Node.js can load it (see scripts/check-node-version.cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // Prettier wraps code at 110 characters but not comments: they are held to the same width.
      // A string Prettier cannot break is left as it is.
      'max-len': [
        'error',
        { code: 110, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
