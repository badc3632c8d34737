/**
 * The QR pane of a link's (or smart link's) detail: its codes newest first with their scans and
 * style, polled like the rest of the detail; create and edit (title and style, no logo), delete
 * after y, and the selected code drawn with text blocks (plain black on white: the styled image
 * is `linkctl qr image`).
 */
import { Box } from 'ink'
import { useEffect, useState } from 'react'
import type { QrCode } from '../../contract/qr-codes.js'
import { fitHead, relativeTime } from '../../format/cells.js'
import { plural } from '../../contract/numbers.js'
import { troubleOf, type TuiClient } from '../api.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { Form } from '../components/form.js'
import { Table, type TableColumn } from '../components/table.js'
import { Drawing, Text } from '../components/text.js'
import { allowed, hasScope, useTui } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { byId, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { qrCreateBody, qrEditBody, qrFields, styleSummary } from './qr-form.js'

export type QrOwner = { linkId: string } | { smartLinkId: string }

/** Pages read at most (100 codes each): a poster campaign, not a print run of thousands. */
const PAGES_MAX = 20

/** A daemon older than QR codes answers their route with its 404 "no route …". */
const noRoute = (err: unknown) => {
  const e = err as { status?: unknown; message?: unknown }
  return e.status === 404 && typeof e.message === 'string' && e.message.startsWith('no route')
}

/** Every code of the owner, newest first; null when the daemon has no QR codes at all. */
async function codesOf(client: TuiClient, owner: QrOwner): Promise<QrCode[] | null> {
  const rows: QrCode[] = []
  for (let page = 1; page <= PAGES_MAX; page++) {
    const got = await client.qrCodes.list({ ...owner, page, limit: 100 }).catch((err: unknown) => {
      if (noRoute(err)) return null
      throw err
    })
    if (got === null) return null
    rows.push(...got.data)
    if (!got.hasMore) break
  }
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
}

const label = (code: QrCode) => (code.title ? `“${code.title}”` : code.id)

function columns(now: number): TableColumn<QrCode>[] {
  return [
    { header: 'ID', width: 6, value: (c) => c.id },
    { header: 'TITLE', value: (c) => c.title ?? '', fit: 'flex' },
    { header: 'SCANS', width: 5, value: (c) => c.scans, align: 'right' },
    { header: 'CREATED', width: 12, value: (c) => relativeTime(Date.parse(c.createdAt), now) },
    { header: 'STYLE', value: (c) => styleSummary(c.style), fit: 'flex' },
  ]
}

/** The code drawn for a terminal, with the URL it encodes (whole: the title is cut), in `rows` lines. */
function Preview({ code, rows, width }: { code: QrCode; rows: number; width: number }) {
  const [drawing, setDrawing] = useState<{ qr: string } | { error: string } | null>(null)
  useEffect(() => {
    let alive = true
    import('../../format/qr.js')
      .then((m) => m.drawQr(code.encodedUrl))
      .then((text) => alive && setDrawing({ qr: text.trimEnd() }))
      .catch((err: unknown) => alive && setDrawing({ error: `no drawing: ${troubleOf(err).message}` }))
    return () => {
      alive = false
    }
  }, [code.encodedUrl])
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">{fitHead(label(code), ` → ${code.encodedUrl}`, width)}</Text>
      {drawing === null ? <Text>drawing the QR code…</Text> : null}
      {drawing && 'qr' in drawing ? (
        <Drawing rows={rows - 2} tooTall="This QR code does not fit">
          {drawing.qr}
        </Drawing>
      ) : null}
      {drawing && 'error' in drawing ? <Text>{drawing.error}</Text> : null}
      <Text dimColor wrap="truncate">
        {`Esc back · the styled image: linkctl qr image ${code.id}`}
      </Text>
    </Box>
  )
}

export function QrCodes(props: {
  owner: QrOwner
  /** The short code, for messages. */
  name: string
  active: boolean
  width: number
  /** Table rows the pane may use. */
  rows: number
  /** Lines a drawn code may use: the detail leaves out its own lines meanwhile (`drawing`). */
  drawRows: number
  /** Called with true when the pane starts drawing a code, false when it stops. */
  drawing(on: boolean): void
  close(): void
}) {
  const env = useTui()
  const { client } = env
  const { owner, name } = props
  const id = 'linkId' in owner ? owner.linkId : owner.smartLinkId
  const poll = usePoll(`QR codes of ${name}`, () => codesOf(client, owner), [client, id])
  const codes = poll.data ?? []
  const rows = Math.max(1, props.rows)
  // On its code when a refresh lists a newer one above it: keys act on the code shown selected.
  const pos = useFollowingCursor(codes, byId, rows)
  const selected = codes[pos.cursor]
  const [mode, setMode] = useState<'list' | 'create' | 'edit' | 'preview'>('list')
  // The code edited or drawn, held: a refresh that adds a code moves the cursor's row.
  const [held, setHeld] = useState<QrCode | null>(null)
  const open = (next: 'edit' | 'preview', code: QrCode) => {
    setHeld(code)
    setMode(next)
  }
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const canWrite = hasScope(env, 'qrCodes:write')
  const canDelete = hasScope(env, 'qrCodes:delete')
  const { drawing } = props
  const drawn = mode === 'preview' && held !== null
  useEffect(() => {
    drawing(drawn)
    return () => drawing(false)
  }, [drawing, drawn])

  useKeys((input, key) => {
    if (confirm || mode === 'create' || mode === 'edit') return
    if (mode === 'preview') {
      if (key.escape || key.leftArrow || key.return || input === 'h' || input === 'p') setMode('list')
      return
    }
    if (key.escape || key.leftArrow || input === 'h') return props.close()
    if (pos.move(input, key)) return
    if (input === 'r') return poll.reload()
    if (poll.data === null) return
    if (input === 'n' && allowed(env, 'qrCodes:write', 'n (new QR code)')) return setMode('create')
    if (!selected) return
    if (key.return || input === 'p') return open('preview', selected)
    if (input === 'e' && allowed(env, 'qrCodes:write', 'e (edit QR code)')) return open('edit', selected)
    if (input === 'd' && allowed(env, 'qrCodes:delete', 'd (delete QR code)'))
      return setConfirm({
        question: `Delete the QR code ${label(selected)} (${plural(selected.scans, 'scan')})?`,
        run: async () => {
          await client.qrCodes.delete(selected.id)
          env.say(`deleted the QR code ${label(selected)}`)
          poll.reload()
        },
      })
  }, props.active)

  if (poll.data === null)
    return (
      <Box flexDirection="column" marginTop={1}>
        <Text>This daemon has no QR codes (their route answered 404): a newer linkd has them.</Text>
        <Text dimColor>Esc back</Text>
      </Box>
    )
  if (mode === 'create')
    return (
      <Form
        title={`New QR code for ${name} (no logo here: linkctl qr update --logo)`}
        fields={qrFields()}
        active={props.active}
        cancel={() => setMode('list')}
        submit={async (values) => {
          const code = await client.qrCodes.create(qrCreateBody(owner, values))
          env.say(`created the QR code ${label(code)}`)
          pos.reset()
          poll.reload()
          setMode('list')
        }}
      />
    )
  if (mode === 'edit' && held)
    return (
      <Form
        title={`Edit the QR code ${label(held)}${held.style.logo ? ' (its logo stays)' : ''}`}
        fields={qrFields(held)}
        active={props.active}
        cancel={() => setMode('list')}
        submit={async (values) => {
          const body = qrEditBody(held, values)
          if (body) {
            const code = await client.qrCodes.update(held.id, body)
            env.say(`saved the QR code ${label(code)}`)
            poll.reload()
          } else env.say('nothing changed')
          setMode('list')
        }}
      />
    )
  if (mode === 'preview' && held) return <Preview code={held} rows={props.drawRows} width={props.width} />

  const scans = codes.reduce((n, c) => n + c.scans, 0)
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>
        {poll.data ? `QR codes: ${codes.length} · ${plural(scans, 'scan')} in all` : 'QR codes: loading…'}
      </Text>
      {poll.data && codes.length === 0 ? (
        <Text>{`No QR codes yet${canWrite ? ': press n to create one' : ''}.`}</Text>
      ) : null}
      {codes.length > 0 ? (
        <Table
          columns={columns(env.clock.now())}
          rows={codes.slice(pos.top, pos.top + rows)}
          width={props.width}
          selected={pos.cursor - pos.top}
          color={env.color}
        />
      ) : null}
      {confirm ? <Confirm ask={confirm} active={props.active} done={() => setConfirm(null)} /> : null}
      <Text dimColor wrap="truncate">
        {[
          'Esc back',
          ...(canWrite ? ['n new', 'e edit'] : []),
          ...(canDelete ? ['d delete'] : []),
          'Enter/p preview',
          'r reload',
        ].join(' · ')}
      </Text>
    </Box>
  )
}
