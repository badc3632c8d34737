import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

// The TUI stands beside the CLI: what both need is in src/session and src/format, which lean on
// neither. The `tui` command loads src/tui by a dynamic import, which this rule does not check.
const notCli = {
  group: ['**/cli/**'],
  message: 'Only src/cli imports src/cli: what the TUI needs too lives in src/session or src/format.',
}
const notTui = {
  group: ['**/tui/**'],
  message: 'Only the tui command loads src/tui, by a dynamic import.',
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'completions/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use the injected clock (clock.now()).' },
      ],
    },
  },
  {
    // The web SDK runs in players' browsers: the clock it has is theirs.
    files: ['test/**', 'bin/**', 'daemon/main.ts', 'daemon/clock.ts', 'src/**', 'sdk/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The single executable's launcher is CommonJS: Node 20 runs a SEA main script only as that.
    files: ['bin/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/tui/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [notCli] }] },
  },
  {
    // The TUI's Text escapes control characters in data; Ink's own would print them raw.
    files: ['src/tui/**'],
    ignores: ['src/tui/components/text.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'ink', importNames: ['Text'], message: 'Import Text from src/tui/components/text.tsx.' },
          ],
          patterns: [notCli],
        },
      ],
    },
  },
  {
    // The TUI's time is its clock (src/tui/clock.ts): the screen tests move it by hand, so none
    // races a refresh. run.ts, before the app, waits for the daemon on real timers.
    files: ['src/tui/**'],
    ignores: ['src/tui/clock.ts', 'src/tui/run.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use the TUI clock: env.clock.now().' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use the TUI clock: env.clock.after().' },
        { name: 'setInterval', message: 'Use the TUI clock: env.clock.after().' },
      ],
    },
  },
  {
    files: ['src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [notTui] }] },
  },
  {
    files: ['src/session/**', 'src/format/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [notCli, notTui] }] },
  },
)
