// ESLint for the whole repository: JavaScript's and typescript-eslint's recommended rules, the React hooks rules
// (the rules of hooks and React Compiler's checks) and Next's rules. `npm run lint` runs it; `npm test` starts with it.
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The Node globals the plain .mjs scripts use (the .ts files get theirs from TypeScript). */
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'fetch', 'AbortController'].map(
    (name) => [name, 'readonly'],
  ),
);

export default tseslint.config(
  {
    ignores: ['node_modules/', '.next/', 'db/migrations/', 'next-env.d.ts', 'data/', 'test-results/', 'playwright-report/', '.test-reports/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The hooks rules are for React code only: elsewhere `use…` names test helpers and server functions, not hooks.
    files: ['app/**/*.tsx', 'components/**/*.{ts,tsx}', 'lib/query/**/*.ts'],
    ...reactHooks.configs.flat['recommended-latest'],
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      // Concord is not built with the React Compiler. These three report what the compiler would have to skip, not
      // bugs of React as it runs here: a ref kept current during render (the latest-value pattern the review panels
      // use to read the draft from key handlers), memoization the compiler could not reproduce, and state reset or
      // read from localStorage after mount (which must wait for the browser, or the server render would not match).
      'react-hooks/refs': 'off',
      'react-hooks/preserve-manual-memoization': 'off',
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    plugins: { '@next/next': nextPlugin },
    rules: { ...nextPlugin.configs.recommended.rules, ...nextPlugin.configs['core-web-vitals'].rules },
  },
  {
    rules: {
      // A leading underscore marks what is unused on purpose (a destructured field left out, a callback's first argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Concord's validation finds and refuses control characters in imported text on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Links prefetch their page when reached for, not whenever on screen (components/ui/link.tsx says why).
    files: ['app/**/*.tsx', 'components/**/*.tsx'],
    ignores: ['components/ui/link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'next/link', message: "Use Link from '@/components/ui/link': it prefetches on intent, not on sight." }] },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: nodeGlobals },
  },
);
