/**
 * Module boundaries (docs/ARCHITECTURE.md, Rules), checked by `npm run lint`:
 * a module is daemon/modules/<name>/ or, inside gaming, daemon/modules/gaming/<part>/; any other
 * file uses it through its index.ts only; no runtime import cycle anywhere in daemon/ and src/.
 */
const MODULE = '^daemon/modules/(gaming/[^/]+|[^/]+)/'
const INDEX = ['^daemon/modules/(gaming/[^/]+|[^/]+)/index\\.ts$', '^daemon/modules/module\\.ts$']

module.exports = {
  forbidden: [
    {
      name: 'module-internals',
      severity: 'error',
      comment: "Another module's files are private: import its index.ts.",
      from: { path: MODULE },
      to: { path: '^daemon/modules/', pathNot: ['^daemon/modules/$1/', ...INDEX] },
    },
    {
      name: 'gaming-part-internals',
      severity: 'error',
      comment: 'gaming/index.ts wires the parts through their index.ts, like any other module.',
      from: { path: '^daemon/modules/gaming/index\\.ts$' },
      to: { path: '^daemon/modules/gaming/[^/]+/', pathNot: INDEX },
    },
    {
      name: 'module-internals-from-outside',
      severity: 'error',
      comment: 'The composition root, the HTTP layer, jobs and admin use a module through its index.ts.',
      from: { path: '^(daemon|src|bin)/', pathNot: '^daemon/modules/' },
      to: { path: '^daemon/modules/', pathNot: INDEX },
    },
    {
      name: 'no-runtime-cycle',
      severity: 'error',
      comment: 'A cycle of static runtime imports (type-only ones are erased; a dynamic import runs later).',
      from: { path: '^(daemon|src)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
