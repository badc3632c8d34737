/**
 * Links: the list (virtualized, searchable), a link's detail with its options and sparkline, the
 * create and edit forms (the API's validation messages shown as it said them) and delete with
 * confirmation; `s` switches to the smart links (their targets and platform breakdown).
 */
import { useCapture, useKeys } from '../hooks/use-keys.js'
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useEffect, useState } from 'react'
import type { Link } from '../../contract/links.js'
import type { SmartLink } from '../../contract/smart-links.js'
import { relativeTime } from '../../format/cells.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { editText, Field } from '../components/field.js'
import { Form } from '../components/form.js'
import { Table, type TableColumn } from '../components/table.js'
import { allowed, hasScope, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { byId, LIST_KEYS, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePagedList } from '../hooks/use-paged-list.js'
import { LinkDetail, linesBelowHead, SmartLinkDetail } from './link-detail.js'
import { QrCodes } from './qr-codes.js'
import { createBody, createFields, editBody, editFields } from './link-form.js'
import { plural } from '../../contract/numbers.js'
import { isShortUrlInUse } from '../../session/exit-codes.js'

type Mode = 'list' | 'search' | 'detail' | 'create' | 'edit'

function columns(now: number): TableColumn<Link>[] {
  return [
    { header: 'CODE', width: 12, value: (l) => l.shortCode },
    { header: 'CLICKS', width: 6, value: (l) => l.clicks, align: 'right' },
    { header: 'CREATED', width: 9, value: (l) => relativeTime(Date.parse(l.createdAt), now) },
    {
      header: 'TITLE / DESTINATION',
      // A link on a safety list says so first: its visits get a warning page.
      value: (l) => (l.flagged ? 'FLAGGED · ' : '') + (l.title ? `${l.title} · ` : '') + l.destinationUrl,
      colour: (l) => (l.flagged ? 'red' : undefined),
      fit: 'flex',
    },
  ]
}

function PlainLinks({ active, width, height, toggle }: ScreenProps & { toggle(): void }) {
  const env = useTui()
  const { client } = env
  const [mode, setMode] = useState<Mode>('list')
  const [search, setSearch] = useState('')
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const [opened, setOpened] = useState<Link | null>(null)
  const [qr, setQr] = useState(false)
  // The QR codes pane in place of the figures: it has the keys while open.
  const [codes, setCodes] = useState(false)
  // The QR codes pane draws a code: it takes the detail's rows.
  const [drawn, setDrawn] = useState(false)
  const list = usePagedList<Link>(
    'links',
    (page, limit) =>
      client.links.list({
        page,
        limit: limit as 100,
        sortBy: 'createdAt',
        sortOrder: 'desc',
        ...(search ? { search } : {}),
      }),
    search,
  )
  // Rows for the table: the height less the search line, the header and the footer.
  const rows = Math.max(1, height - 3)
  const total = list.total ?? 0
  // On its link when others are listed above it or removed: keys act on the link shown selected.
  const pos = useFollowingCursor(list, byId, rows)
  const { cursor, top } = pos
  useEffect(() => list.show(top, top + rows))
  useCapture(mode === 'search')

  const selected = list.rowAt(cursor)
  const current = mode === 'list' ? selected : (opened ?? selected)
  const canWrite = hasScope(env, 'links:write')
  const canDelete = hasScope(env, 'links:delete')
  const canQr = hasScope(env, 'qrCodes:read')
  // Pressed for an action: allowed, or the status line says which scope the key lacks.
  const may = {
    write: (what: string) => allowed(env, 'links:write', what),
    delete: () => allowed(env, 'links:delete', 'd (delete)'),
  }

  const askDelete = (link: Link) =>
    setConfirm({
      question: `Delete ${link.shortCode} (${link.destinationUrl})? Its short URL stops working.`,
      run: async () => {
        await client.links.delete(link.id)
        env.say(`deleted ${link.shortCode}`)
        setMode('list')
        list.reload()
      },
    })

  useKeys((input, key) => {
    if (confirm) return
    if (mode === 'search') {
      if (key.return) return setMode('list')
      if (key.escape) {
        // The whole list again, from its top (as any change of the search).
        setSearch('')
        pos.reset()
        return setMode('list')
      }
      setSearch((text) => editText(text, input, key) ?? text)
      pos.reset()
      return
    }
    if (mode === 'detail') {
      if (codes) return
      if (key.escape || key.leftArrow || input === 'h') {
        setQr(false)
        return setMode('list')
      }
      if (input === 'Q' && allowed(env, 'qrCodes:read', 'Q (QR code)')) return setQr((q) => !q)
      if (input === 'c' && allowed(env, 'qrCodes:read', 'c (QR codes)')) return setCodes(true)
      if (input === 'e' && may.write('e (edit)')) return setMode('edit')
      if (input === 'd' && may.delete() && opened) return askDelete(opened)
      return
    }
    if (mode !== 'list') return
    if (pos.move(input, key)) return
    if (input === '/') return setMode('search')
    if (input === 'r') return list.reload()
    if (input === 'n' && may.write('n (new link)')) return setMode('create')
    if (input === 's') return toggle()
    if (!selected) return
    if (key.return || key.rightArrow || input === 'l') {
      setOpened(selected)
      return setMode('detail')
    }
    if (input === 'e' && may.write('e (edit)')) {
      setOpened(selected)
      return setMode('edit')
    }
    if (input === 'd' && may.delete()) return askDelete(selected)
  }, active)

  const footer = confirm ? <Confirm ask={confirm} active={active} done={() => setConfirm(null)} /> : null

  if (mode === 'create')
    return (
      <Form
        title="New link"
        fields={createFields()}
        active={active}
        cancel={() => setMode('list')}
        submit={async (values) => {
          const link = await client.links.create(createBody(values))
          env.say(`created ${link.shortUrl}`)
          list.reload()
          setOpened(link)
          setMode('detail')
        }}
      />
    )
  if (mode === 'edit' && current)
    return (
      <Form
        title={`Edit ${current.shortCode}`}
        fields={editFields(current)}
        active={active}
        cancel={() => setMode(opened ? 'detail' : 'list')}
        submit={async (values) => {
          const body = editBody(current, values)
          const saved = (link: Link) => {
            setOpened(link)
            env.say(`saved ${link.shortCode}`)
            list.reload()
          }
          if (body) {
            try {
              saved(await client.links.update(current.id, body))
            } catch (err) {
              if (!isShortUrlInUse(err)) throw err
              // QR codes or recent clicks use the short URL: forced only once the user says so.
              setOpened(current)
              setConfirm({
                question: `${err.message}. Change it anyway?`,
                run: async () => saved(await client.links.update(current.id, { ...body, force: true })),
              })
            }
          } else env.say('nothing changed')
          setMode('detail')
        }}
      />
    )
  // The detail's lines: the screen's less the footer and a confirmation (the QR codes pane has its own).
  const detailRows = codes ? height : height - 2
  if (mode === 'detail' && opened)
    return (
      <Box flexDirection="column">
        <LinkDetail link={opened} width={width} qr={qr} rows={detailRows} bare={codes && drawn}>
          {codes ? (
            <QrCodes
              owner={{ linkId: opened.id }}
              name={opened.shortCode}
              active={active}
              width={width}
              rows={linesBelowHead(opened, width, detailRows) - 5}
              drawRows={height}
              drawing={setDrawn}
              close={() => setCodes(false)}
            />
          ) : null}
        </LinkDetail>
        {codes ? null : (
          <Box flexDirection="column" flexShrink={0}>
            {footer}
            <Text dimColor wrap="truncate">
              {[
                'Esc back',
                ...(canWrite ? ['e edit'] : []),
                ...(canDelete ? ['d delete'] : []),
                ...(canQr ? [`Q ${qr ? 'figures' : 'QR code'}`, 'c QR codes'] : []),
              ].join(' · ')}
            </Text>
          </Box>
        )}
      </Box>
    )

  const visible: (Link | undefined)[] = []
  for (let i = top; i < Math.min(total, top + rows); i++) visible.push(list.rowAt(i))
  return (
    <Box flexDirection="column">
      {mode === 'search' || search ? (
        <Field label="Search" value={search} focused={mode === 'search'} />
      ) : (
        <Text dimColor wrap="truncate">
          {[
            list.total === undefined ? 'loading links' : plural(total, 'link'),
            '/ search',
            ...(canWrite ? ['n new'] : []),
            'Enter open',
            ...(canWrite ? ['e edit'] : []),
            ...(canDelete ? ['d delete'] : []),
            's smart links',
          ].join(' · ')}
        </Text>
      )}
      {list.total === 0 ? (
        <Text>
          {search
            ? `No link matches "${search}".`
            : `No links yet${canWrite ? ': press n to create one' : ''}.`}
        </Text>
      ) : (
        <Table
          columns={columns(env.clock.now())}
          rows={visible}
          width={width}
          selected={cursor - top}
          color={env.color}
          loading="loading…"
        />
      )}
      {footer ?? (total > 0 ? <Text dimColor>{`${cursor + 1} of ${total}`}</Text> : null)}
    </Box>
  )
}

const SMART_COLUMNS: TableColumn<SmartLink>[] = [
  { header: 'CODE', width: 12, value: (l) => l.shortCode },
  { header: 'CLICKS', width: 6, value: (l) => l.clicks, align: 'right' },
  {
    header: 'TITLE / FALLBACK',
    value: (l) => (l.title ? `${l.title} · ` : '') + l.fallbackUrl,
    fit: 'flex',
  },
]

/** The smart links: a list (read-only here: linkctl smart-links writes them) and a detail. */
function SmartLinks({ active, width, height, toggle }: ScreenProps & { toggle(): void }) {
  const env = useTui()
  const [opened, setOpened] = useState<SmartLink | null>(null)
  const [codes, setCodes] = useState(false)
  // The QR codes pane draws a code: it takes the detail's rows.
  const [drawn, setDrawn] = useState(false)
  // A daemon without smart links answers their route 404: said once, not retried as a failure.
  const [missing, setMissing] = useState(false)
  const list = usePagedList<SmartLink>(
    'smart links',
    (page, limit) =>
      env.client.smartLinks.list({ page, limit: limit as 100 }).catch((err: unknown) => {
        if ((err as { status?: unknown }).status !== 404) throw err
        setMissing(true)
        return { data: [], total: 0, page, perPage: limit, hasMore: false }
      }),
    '',
  )
  const rows = Math.max(1, height - 3)
  const total = list.total ?? 0
  const pos = useFollowingCursor(list, byId, rows)
  const { cursor, top } = pos
  useEffect(() => list.show(top, top + rows))
  const selected = list.rowAt(cursor)

  useKeys((input, key) => {
    if (opened) {
      if (codes) return
      if (key.escape || key.leftArrow || input === 'h') setOpened(null)
      if (input === 'c' && allowed(env, 'qrCodes:read', 'c (QR codes)')) setCodes(true)
      return
    }
    if (pos.move(input, key)) return
    if (input === 's') return toggle()
    if (input === 'r') return list.reload()
    if (selected && (key.return || key.rightArrow || input === 'l')) setOpened(selected)
  }, active)

  if (opened)
    return (
      <Box flexDirection="column">
        <SmartLinkDetail link={opened} width={width} bare={codes && drawn}>
          {codes ? (
            <QrCodes
              owner={{ smartLinkId: opened.id }}
              name={opened.shortCode}
              active={active}
              width={width}
              rows={height - 11}
              drawRows={height}
              drawing={setDrawn}
              close={() => setCodes(false)}
            />
          ) : null}
        </SmartLinkDetail>
        {codes ? null : (
          <Box flexShrink={0}>
            <Text dimColor>{hasScope(env, 'qrCodes:read') ? 'Esc back · c QR codes' : 'Esc back'}</Text>
          </Box>
        )}
      </Box>
    )
  const visible: (SmartLink | undefined)[] = []
  for (let i = top; i < Math.min(total, top + rows); i++) visible.push(list.rowAt(i))
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {[
          list.total === undefined ? 'loading smart links' : plural(total, 'smart link'),
          'Enter open',
          's links',
        ].join(' · ')}
      </Text>
      {missing ? (
        <Text>This daemon has no smart links (their route answered 404): a newer linkd has them.</Text>
      ) : list.total === 0 ? (
        <Text>No smart links yet: linkctl smart-links create makes one.</Text>
      ) : (
        <Table
          columns={SMART_COLUMNS}
          rows={visible}
          width={width}
          selected={cursor - top}
          color={env.color}
          loading="loading…"
        />
      )}
      {total > 0 ? <Text dimColor>{`${cursor + 1} of ${total}`}</Text> : null}
    </Box>
  )
}

function Links(props: ScreenProps) {
  const env = useTui()
  const [smart, setSmart] = useState(false)
  const toggle = () => {
    if (smart) setSmart(false)
    else if (allowed(env, 'smartLinks:read', 's (smart links)')) setSmart(true)
  }
  return smart ? <SmartLinks {...props} toggle={toggle} /> : <PlainLinks {...props} toggle={toggle} />
}

export const links: ScreenDef = {
  id: 'links',
  title: 'Links',
  scope: 'links:read',
  keys: [
    ...LIST_KEYS,
    { keys: '/', does: 'search (Enter keeps it, Esc clears it)' },
    { keys: 'Enter, → or l', does: 'open the link: figures, sparkline, top countries' },
    { keys: 'n', does: 'new link (links:write)' },
    { keys: 'e', does: 'edit the link (links:write)' },
    { keys: 'd', does: 'delete the link, after y (links:delete)' },
    { keys: 'r', does: 'reload the list' },
    { keys: 's', does: 'smart links (targets, platform breakdown) and back to links (smartLinks:read)' },
    { keys: 'Q', does: 'the link’s QR code instead of its figures, and back (qrCodes:read)' },
    {
      keys: 'c',
      does: 'a link’s or smart link’s QR codes (scans, style): n new, e edit, d delete after y, Enter/p draw it; no logo from the TUI (linkctl qr update --logo)',
    },
    { keys: 'Esc, ← or h', does: 'back from a link' },
    { keys: 'in forms', does: '↑/↓ or Tab between fields, Enter next / save, Esc cancel' },
  ],
  render: (props) => <Links {...props} />,
}
