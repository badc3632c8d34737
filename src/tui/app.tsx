/**
 * The TUI's frame: tab bar, the current screen, the status line and the `?` overlay. Global keys
 * (Tab / Shift-Tab / 1-9 and 0 between screens, ? help, q and Ctrl-C quit) are read here; a screen
 * reads its own keys, and takes them all while it has a field open (`capture`).
 */
import { isTextRun, splitKeys, textKey, type KeyPress } from './hooks/key-chunks.js'
import { dispatchKey, KeysContext, SCREEN_CTRL_KEYS, type KeyRegistry } from './hooks/use-keys.js'
import { Box, render, useApp, useInput, useStdout, type Instance, type Key, type RenderOptions } from 'ink'
import { Text } from './components/text.js'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { TuiClient, Trouble } from './api.js'
import { systemClock, type TuiClock } from './clock.js'
import { ErrorBoundary } from './components/error-boundary.js'
import {
  TuiContext,
  tint,
  useRelearnWhile,
  type KeyHelp,
  type ScreenDef,
  type ScreenProps,
  type TuiEnv,
} from './context.js'
import { SCREENS } from './screens/index.js'
import { wrapWords } from '../format/columns.js'
import { uptime } from '../format/uptime.js'

export const GLOBAL_KEYS: KeyHelp[] = [
  { keys: 'Tab / Shift-Tab', does: 'next / previous screen' },
  { keys: '1-9, 0', does: 'screen n (0: the tenth)' },
  { keys: '?', does: 'help' },
  { keys: 'Ctrl-L', does: 'redraw' },
  { keys: 'q / Ctrl-C', does: 'quit' },
]

export interface AppProps {
  client: TuiClient
  refreshSeconds: number
  /** The system clock unless given (tests move theirs by hand). */
  clock?: TuiClock
  color: boolean
  scopes: ReadonlySet<string> | null
  /** Why the key cannot be used, when the daemon said so (screens say it instead of a scope). */
  keyProblem?: string
  /** Who is connected where, for the status line. */
  identity?: string
  /** Why refreshes come slower than asked (`refresh 10s (key's rate limit)`): kept on the status line. */
  refreshNote?: string
  /** The daemon's URL. */
  url?: string
  screens?: ScreenDef[]
  /** False when the daemon has gaming turned off (run.ts asks GET /api/use): no gaming tab. */
  gaming?: boolean
  /**
   * Asks the daemon again who the key is (run.ts: `whoAmI`): when a screen or an action needs a
   * scope the key lacked, and when the daemon refuses a screen (403). Without it, what the start
   * learnt is kept.
   */
  relearn?: () => Promise<Who>
  /** Where the app starts (tests). */
  initialScreen?: string
  /** Writes the whole screen again (Ctrl-L; run.ts's screen writer). */
  redraw?: () => void
}

/** Renders the app on a terminal (run.ts loads this module, and with it Ink and React, lazily). */
export function mount(props: AppProps, options: RenderOptions): Instance {
  return render(<App {...props} />, options)
}

/** The terminal's size, following resizes. */
function useSize(): { columns: number; rows: number } {
  const { stdout } = useStdout()
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 })
  const [size, setSize] = useState(read)
  useEffect(() => {
    const onResize = () => setSize(read())
    stdout.on('resize', onResize)
    return () => void stdout.off('resize', onResize)
  }, [stdout])
  return size
}

/** Who the key is: its scopes (null: unknown), the status line's identity, why it cannot be used. */
export interface Who {
  scopes: ReadonlySet<string> | null
  identity?: string
  keyProblem?: string
}

/**
 * The key's scopes, learnt at the start and again on `relearn()` (one request at a time): a member
 * promoted or a key's scopes changed meanwhile are seen without a restart. An answer without scopes
 * (the daemon down or slow) keeps what was learnt. A change says so on the status line.
 */
function useWho(props: AppProps, say: (message: string) => void): { who: Who; relearn(): void } {
  const [learnt, setLearnt] = useState<Who | null>(null)
  const asking = useRef(false)
  const latest = useRef<{ props: AppProps; learnt: Who | null }>({ props, learnt })
  latest.current = { props, learnt }
  const relearn = useCallback(() => {
    const ask = latest.current.props.relearn
    if (!ask || asking.current) return
    asking.current = true
    ask()
      .then((next) => {
        if (next.scopes === null) return
        const before = latest.current.learnt?.scopes ?? latest.current.props.scopes
        setLearnt(next)
        if (before !== null) {
          const gained = [...next.scopes].filter((s) => !before.has(s))
          const lost = [...before].filter((s) => !next.scopes!.has(s))
          const said = [
            ...(gained.length ? [`now with ${gained.join(', ')}`] : []),
            ...(lost.length ? [`without ${lost.join(', ')}`] : []),
          ]
          if (said.length) say(`this key's scopes changed: ${said.join('; ')}`)
        }
      })
      .catch(() => undefined)
      .finally(() => (asking.current = false))
  }, [say])
  const who = learnt ?? {
    scopes: props.scopes,
    ...(props.identity !== undefined ? { identity: props.identity } : {}),
    ...(props.keyProblem !== undefined ? { keyProblem: props.keyProblem } : {}),
  }
  return { who, relearn }
}

interface Status {
  trouble: Trouble | null
  retryInMs: number | undefined
}

export function App(props: AppProps) {
  const gaming = props.gaming !== false
  const screens = useMemo(
    () => (props.screens ?? SCREENS).filter((s) => gaming || !s.gaming),
    [props.screens, gaming],
  )
  const { exit } = useApp()
  const size = useSize()
  const initial = Math.max(
    0,
    screens.findIndex((s) => s.id === props.initialScreen),
  )
  const [index, setIndex] = useState(initial)
  const [help, setHelp] = useState(false)
  const [status, setStatus] = useState<Status>({ trouble: null, retryInMs: undefined })
  const [message, setMessage] = useState<string | null>(null)
  const captured = useRef(0)
  const troubles = useRef(new Map<string, Status>())
  const kept = useRef(new Map<string, { current: unknown }>()).current

  const { who, relearn } = useWho(props, setMessage)
  const report = useCallback(
    (source: string, trouble: Trouble | null, retryInMs?: number) => {
      // Refused by the daemon: the key's scopes or its member's role may have changed.
      if (trouble?.kind === 'auth') relearn()
      if (trouble) troubles.current.set(source, { trouble, retryInMs })
      else troubles.current.delete(source)
      const first = troubles.current.values().next()
      setStatus(first.done ? { trouble: null, retryInMs: undefined } : first.value)
    },
    [relearn],
  )
  const capture = useCallback((on: boolean) => {
    captured.current = Math.max(0, captured.current + (on ? 1 : -1))
  }, [])
  const env: TuiEnv = useMemo(
    () => ({
      client: props.client,
      refreshMs: Math.max(1, props.refreshSeconds) * 1000,
      clock: props.clock ?? systemClock,
      color: props.color,
      scopes: who.scopes,
      gaming,
      ...(who.keyProblem ? { keyProblem: who.keyProblem } : {}),
      ...(props.url ? { url: props.url } : {}),
      report,
      capture,
      say: setMessage,
      relearn,
      kept,
    }),
    [
      props.client,
      props.refreshSeconds,
      props.clock,
      props.color,
      who.scopes,
      gaming,
      who.keyProblem,
      props.url,
      report,
      capture,
      relearn,
      kept,
    ],
  )

  const keys = useRef<KeyRegistry>(new Set()).current
  const globalKeys = (input: string, key: Key, wasCaptured = false) => {
    if (key.ctrl && input === 'c') return exit()
    if (key.ctrl && input === 'l') return props.redraw?.()
    if (help) return setHelp(false)
    if (wasCaptured) return
    if (input === 'q') return exit()
    if (input === '?') return setHelp(true)
    const go = (i: number) => {
      setIndex((i + screens.length) % screens.length)
      setMessage(null)
    }
    if (key.tab) return go(key.shift ? index - 1 : index + 1)
    // 1-9 and 0 for the tenth screen.
    const n = input === '0' ? 10 : Number(input)
    if (/^[0-9]$/.test(input) && n <= screens.length) return go(n - 1)
  }
  // The screens' handlers first (they see the state the key was pressed in), then the global keys.
  // A Ctrl key reaches the screens only as the moves they know (Ctrl-U, Ctrl-D), and Ctrl-S while
  // a form holds the keys (it saves): Ctrl-L is not `l`.
  const latestGlobal = useRef(globalKeys)
  latestGlobal.current = globalKeys
  const handleKey = useCallback(
    (input: string, key: Key) => {
      const wasCaptured = captured.current > 0
      if (!key.ctrl || SCREEN_CTRL_KEYS.has(input) || (wasCaptured && input === 's'))
        dispatchKey(keys, input, key)
      latestGlobal.current(input, key, wasCaptured)
    },
    [keys],
  )
  // Keys read together (one input holding several) are handled one at a time, each after the
  // render of the one before: a key that opens a form or changes screen is seen by the next.
  // That render may come after a setImmediate, so the next key waits for a commit of its own
  // (drainTick): React renders the screens' updates of a key together with it.
  const pending = useRef<KeyPress[]>([])
  const draining = useRef(false)
  const [drainTick, setDrainTick] = useState(0)
  const drain = useCallback(() => {
    const next = pending.current.shift()
    if (!next) {
      draining.current = false
      return
    }
    let [input, key] = next
    // Text typed ahead goes whole into a field; elsewhere each character is a key (j j j).
    if (isTextRun(next) && captured.current === 0) {
      const [first = '', ...rest] = [...input]
      pending.current.unshift(textKey(rest.join('')))
      ;[input, key] = textKey(first)
    }
    handleKey(input, key)
    if (pending.current.length > 0) setDrainTick((n) => n + 1)
    else draining.current = false
  }, [handleKey])
  useEffect(() => {
    if (drainTick === 0) return
    const next = setImmediate(drain)
    return () => clearImmediate(next)
  }, [drainTick, drain])
  const onKey = useCallback(
    (input: string, key: Key) => {
      pending.current.push(...splitKeys(input, key))
      if (draining.current) return
      draining.current = true
      drain()
    },
    [drain],
  )
  useEffect(() => () => void (pending.current = []), [])
  useInput(onKey)

  const screen = screens[index] ?? screens[0]!
  const allowed = screen.scope === null || env.scopes === null || env.scopes.has(screen.scope)
  useRelearnWhile(!allowed, env)
  // The whole terminal: one line each for the tab bar and the status line, the screen between.
  // Lines are written by row (screen-writer.ts), never with a line break: the last row can be
  // used without the terminal scrolling.
  const frameHeight = Math.max(5, size.rows)
  const bodyHeight = frameHeight - 2

  return (
    <TuiContext.Provider value={env}>
      <KeysContext.Provider value={keys}>
        <Box flexDirection="column" width={size.columns} height={frameHeight}>
          <Text wrap="truncate">
            {tabLabels(
              screens.map((s) => s.title),
              index,
              size.columns,
            ).map((label, i) => (
              <Text key={screens[i]?.id ?? i} inverse={i === index} dimColor={i !== index}>
                {label}
              </Text>
            ))}
          </Text>
          <Box flexDirection="column" height={bodyHeight} overflow="hidden">
            {help ? <HelpOverlay screen={screen} columns={size.columns} /> : null}
            {!allowed && env.keyProblem ? (
              <Box display={help ? 'none' : 'flex'}>
                <Text color={tint(env, 'yellow')}>{env.keyProblem}</Text>
              </Box>
            ) : !allowed ? (
              <Box flexDirection="column" display={help ? 'none' : 'flex'}>
                <Text color={tint(env, 'yellow')}>
                  {`${screen.title} needs the scope ${screen.scope}; this key does not have it.`}
                </Text>
                <Text dimColor>{`Its scopes: ${[...(env.scopes ?? [])].join(', ') || 'none'}`}</Text>
                <Text
                  dimColor
                >{`A key with it: linkctl keys create --name ${screen.id}-read --scope ${screen.scope ?? ''}`}</Text>
              </Box>
            ) : (
              // Kept mounted behind the overlay (a half-filled form survives `?`), without the keyboard.
              <Box flexDirection="column" display={help ? 'none' : 'flex'}>
                <ErrorBoundary key={screen.id} color={props.color}>
                  <ScreenHost screen={screen} active={!help} width={size.columns} height={bodyHeight} />
                </ErrorBoundary>
              </Box>
            )}
          </Box>
          <StatusLine
            status={status}
            message={message}
            identity={who.identity}
            note={props.refreshNote}
            color={props.color}
          />
        </Box>
      </KeysContext.Provider>
    </TuiContext.Provider>
  )
}

/**
 * The tab bar's labels, in the widest form that fits on one line: every title; else the current
 * screen's title and the others' numbers; else numbers only (the line is cut beyond that).
 */
export function tabLabels(titles: string[], current: number, columns: number): string[] {
  const forms = [
    titles.map((t, i) => ` ${i + 1} ${t} `),
    titles.map((t, i) => (i === current ? ` ${i + 1} ${t} ` : ` ${i + 1} `)),
    titles.map((_, i) => ` ${i + 1} `),
  ]
  return forms.find((labels) => labels.join('').length <= columns) ?? forms[2]!
}

/** Renders a screen as a component of its own, so that the error boundary catches its throws. */
function ScreenHost(props: { screen: ScreenDef } & ScreenProps) {
  const { screen, ...rest } = props
  return <>{screen.render(rest)}</>
}

function StatusLine(props: {
  status: Status
  message: string | null
  identity?: string | undefined
  note?: string | undefined
  color: boolean
}) {
  const { trouble, retryInMs } = props.status
  if (trouble) {
    const wait = trouble.permanent
      ? ' (not retried)'
      : retryInMs === undefined
        ? ''
        : ` (retrying in ${uptime(Math.ceil(retryInMs / 1000))})`
    const label = { unreachable: 'daemon unreachable', auth: 'auth', 'rate-limited': '429', error: 'error' }[
      trouble.kind
    ]
    return (
      <Text color={props.color ? 'red' : undefined} wrap="truncate">
        {`✗ ${label}${wait}: ${trouble.message}`}
      </Text>
    )
  }
  // A narrow terminal cuts the message or the identity (key, organization, URL), never the
  // refresh note nor the keys that help and quit.
  return (
    <Box>
      <Box flexShrink={1}>
        <Text dimColor wrap="truncate">
          {props.message ?? props.identity ?? ''}
        </Text>
      </Box>
      {props.note ? (
        <Box flexShrink={0}>
          <Text dimColor>{` · ${props.note}`}</Text>
        </Box>
      ) : null}
      {props.message === null ? (
        <Box flexShrink={0}>
          <Text dimColor>{'  ? help · q quit'}</Text>
        </Box>
      ) : null}
    </Box>
  )
}

/**
 * The `?` overlay: each key beside what it does, a long description wrapped between words under
 * its own column (never back at the left edge); last, the keys every screen has, run together.
 */
function HelpOverlay({ screen, columns }: { screen: ScreenDef; columns: number }) {
  const keysWidth = Math.max(...screen.keys.map((r) => r.keys.length), EVERYWHERE.length) + 2
  const room = Math.max(20, columns - keysWidth)
  const rows: KeyHelp[] = [
    ...screen.keys,
    { keys: EVERYWHERE, does: GLOBAL_KEYS.map((r) => `${r.keys} ${r.does}`).join(' · ') },
  ]
  const lines = rows.flatMap((r) =>
    wrapWords(r.does, room).map(
      (line, i) => (i === 0 ? r.keys.padEnd(keysWidth) : ' '.repeat(keysWidth)) + line,
    ),
  )
  return (
    <Box flexDirection="column" flexShrink={0}>
      <Text bold wrap="truncate">{`Keys of ${screen.title} · any key closes this`}</Text>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line}
        </Text>
      ))}
    </Box>
  )
}

const EVERYWHERE = 'everywhere'
