/**
 * Module boundaries (docs/ARCHITECTURE.md, "Modules and their tables"), checked by `npm run lint`:
 * a module is daemon/modules/<name>/ or, inside gaming, daemon/modules/gaming/<part>/; any other
 * file uses it through its index.ts only; a module imports only the modules its "calls" names in
 * docs/ARCHITECTURE.md (type imports too); no import cycle anywhere in daemon/ and src/.
 */
const fs = require('node:fs')
const path = require('node:path')

const MODULE = '^daemon/modules/(gaming/[^/]+|[^/]+)/'
const INDEX = ['^daemon/modules/(gaming/[^/]+|[^/]+)/index\\.ts$', '^daemon/modules/module\\.ts$']

/**
 * Each module and the modules it calls, read from docs/ARCHITECTURE.md's list: a line
 * `- **name**: what it does · owns · calls.` (a gaming part is nested under `- **gaming**`, which
 * calls its parts). A word of the calls naming a module (a sibling part first) is an edge.
 */
function moduleCalls() {
  const doc = fs.readFileSync(path.join(__dirname, 'docs/ARCHITECTURE.md'), 'utf8')
  const list = doc.split('\n## Modules and their tables\n')[1].split('\n## ')[0]
  const entries = []
  for (const line of list.split('\n')) {
    const m = /^( *)- \*\*([a-z-]+)\*\*(.*)$/.exec(line)
    if (m) entries.push({ name: m[2], nested: m[1].length > 0, text: m[3] })
    else if (/^ +\S/.test(line) && entries.length) entries[entries.length - 1].text += ' ' + line.trim()
  }
  let parent
  for (const e of entries) {
    if (!e.nested) parent = e.name
    e.module = e.nested ? `${parent}/${e.name}` : e.name
    e.parent = e.nested ? parent : undefined
  }
  const modules = new Set(entries.map((e) => e.module))
  const calls = new Map()
  for (const e of entries) {
    const words = (e.text.split(/\s·\s/)[2] ?? '').split(/[.;](?:\s|$)/)[0].match(/[\w-]+/g) ?? []
    const named = words.map((w) =>
      [e.parent && `${e.parent}/${w}`, w, ...[...modules].filter((m) => m.endsWith(`/${w}`))].find(
        (m) => m && m !== e.module && modules.has(m),
      ),
    )
    calls.set(e.module, new Set(named.filter(Boolean)))
    if (e.parent) calls.get(e.parent).add(e.module)
  }
  return calls
}

/** A module's own files: gaming's are the files directly in gaming/ (its parts are modules). */
const own = (m) => (m === 'gaming' ? '^daemon/modules/gaming/[^/]+$' : `^daemon/modules/${m}/`)
const calls = moduleCalls()
const callRules = [...calls].map(([m, to]) => ({
  name: 'module-calls',
  severity: 'error',
  comment: `${m} imports only what docs/ARCHITECTURE.md says it calls: ${[...to].join(', ') || 'no module'}.`,
  from: { path: own(m) },
  to: {
    path: '^daemon/modules/',
    pathNot: [INDEX[1], own(m), ...[...to].map((c) => `^daemon/modules/${c}/`)],
  },
}))

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
      comment:
        "gaming's own files (index.ts, off.ts) use the parts through their index.ts, like any other module.",
      from: { path: own('gaming') },
      to: { path: '^daemon/modules/gaming/[^/]+/', pathNot: INDEX },
    },
    {
      name: 'module-internals-from-outside',
      severity: 'error',
      comment: 'The composition root, the HTTP layer, jobs and admin use a module through its index.ts.',
      from: { path: '^(daemon|src|bin)/', pathNot: '^daemon/modules/' },
      to: { path: '^daemon/modules/', pathNot: INDEX },
    },
    ...callRules,
    {
      name: 'module-calls',
      severity: 'error',
      comment:
        "A module missing from docs/ARCHITECTURE.md's list calls no module: add it there with its calls.",
      from: { path: MODULE, pathNot: [...calls.keys()].map(own) },
      to: { path: '^daemon/modules/', pathNot: [INDEX[1], '^daemon/modules/$1/'] },
    },
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A cycle of imports, type-only and dynamic ones included: the graph reads one way.',
      from: { path: '^(daemon|src)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
