// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // .dependency-cruiser.cjs is the layer rule's configuration (CommonJS, as the tool reads it), not the bot's code.
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-artifacts/**', 'coverage/**', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch over our own unions names every member, so a new member fails lint where it is not handled; a
      // `default` is accepted where the value comes off the wire (opcodes, option types) and may be anything.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: true },
      ],
      'no-console': 'off',
    },
  },
  {
    // What `npm start` ships (src/) never reaches into the tests, the fakes, the demo or the scripts.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(test|fakes|demo|scripts|bench)/',
              message: 'src/ ships with npm start: it must not import tests, fakes, the demo or scripts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Browser code served as it is (no build step), and the CommonJS run on any Node (scripts/check-node.cjs): not
    // part of the TypeScript project.
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
