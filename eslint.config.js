import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

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
    files: ['test/**', 'bin/**', 'daemon/main.ts', 'daemon/clock.ts', 'src/**'],
    rules: { 'no-restricted-properties': 'off' },
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
        },
      ],
    },
  },
)
