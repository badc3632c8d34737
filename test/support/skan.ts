/**
 * Helpers of the SKAN tests: Apple's real 4.0 postback, a P-256 test key, and
 * postbacks of each version signed with it. The signed strings are written here from Apple's field
 * order, independently of the daemon's code, so that a wrong order there fails the tests.
 */
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto'
import type { GameWithSecrets } from '../../src/contract/games.js'
import { APPLE_POSTBACK_EXAMPLE, type SkanCampaign } from '../../src/contract/skan.js'
import { APPLE_SKAN_PUBLIC_KEY } from '../../daemon/modules/gaming/skan/postback.js'
import { createTestApp, sqlRows, type TestApp } from './app.js'
import { createGame } from './gaming.js'

/** One real Apple-signed 4.0 postback (public test vector): it verifies against Apple's key. */
export const APPLE_VECTOR = APPLE_POSTBACK_EXAMPLE

const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
/** The test key's public half, SPKI DER base64 (what the daemon is given). */
export const TEST_PUBLIC_KEY = pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64')

type Fields = Record<string, string | number | boolean>

/** Apple's order of the signed fields per version; the source app or domain only when present. */
function signedValues(p: Fields): string[] {
  const v = String(p.version)
  const source = p['source-app-id'] ?? p['source-domain']
  const head = [v, p['ad-network-id'], v.startsWith('4') ? p['source-identifier'] : p['campaign-id']]
  const middle = [p['app-id'], p['transaction-id'], p.redownload, ...(source !== undefined ? [source] : [])]
  const tail =
    v === '2.2'
      ? [p['fidelity-type']]
      : v === '3.0'
        ? [p['fidelity-type'], p['did-win']]
        : [p['fidelity-type'], p['did-win'], p['postback-sequence-index']]
  return [...head, ...middle, ...tail].map(String)
}

/** The postback with `attribution-signature` made with the test key over its signed fields. */
export function signed(p: Fields, key = pair.privateKey): Fields {
  const data = Buffer.from(signedValues(p).join('\u2063'), 'utf8')
  return {
    ...p,
    'attribution-signature': sign('sha256', data, { key, dsaEncoding: 'der' }).toString('base64'),
  }
}

export function postback40(over: Fields = {}): Fields {
  return {
    version: '4.0',
    'ad-network-id': 'abc123.skadnetwork',
    'source-identifier': '39',
    'app-id': 1234567890,
    'transaction-id': randomUUID(),
    redownload: false,
    'source-app-id': 987654321,
    'fidelity-type': 1,
    'did-win': true,
    'postback-sequence-index': 0,
    ...over,
  }
}

/** The 3.0 form of postback40's fields: campaign-id in place of source-identifier and sequence. */
export function postback30(over: Fields = {}): Fields {
  const { 'source-identifier': _s, 'postback-sequence-index': _i, ...rest } = postback40()
  return { ...rest, version: '3.0', 'campaign-id': 39, ...over }
}

export function postback22(over: Fields = {}): Fields {
  const { 'did-win': _didWin, ...rest } = postback30(over)
  return { ...rest, version: '2.2' }
}

/** The test app trusting Apple's key and the test key, with a SKAN game. */
export async function skanApp(): Promise<{ t: TestApp; game: GameWithSecrets }> {
  const t = await createTestApp({}, { skanPublicKeys: [APPLE_SKAN_PUBLIC_KEY, TEST_PUBLIC_KEY] })
  return { t, game: await createGame(t, { modules: { skan: true } }) }
}

export async function createCampaign(
  t: TestApp,
  game: { id: string },
  over: Record<string, unknown> = {},
): Promise<SkanCampaign> {
  const res = await t.call('POST', `/api/v1/skan/games/${game.id}/campaigns`, {
    body: {
      name: 'Campaign',
      adNetworkId: 'abc123.skadnetwork',
      lockWindowHours: 24,
      conversionSchema: { events: { tutorial: 1, level_5: 2, purchase: 4 } },
      ...over,
    },
  })
  if (res.statusCode !== 201) throw new Error(`create campaign failed: ${res.statusCode} ${res.body}`)
  return res.json<SkanCampaign>()
}

/**
 * Posts a postback, without a key (as Apple does) unless one is given, to the API route or another
 * address.
 */
export const post = (t: TestApp, body: unknown, url = '/api/v1/skan/postbacks', key: string | null = null) =>
  t.call('POST', url, { body, key })

/** The campaign a stored postback was matched to (null: none), read from the database. */
export async function matchedCampaign(t: TestApp, p: Record<string, unknown>): Promise<string | null> {
  const rows = await sqlRows<{ campaign_id: string | null }>(
    t,
    'SELECT campaign_id FROM skan_postbacks WHERE transaction_id = ? AND sequence_index = ?',
    p['transaction-id'],
    p['postback-sequence-index'] ?? 0,
  )
  if (rows.length !== 1) throw new Error(`no stored postback ${String(p['transaction-id'])}`)
  return rows[0]!.campaign_id
}
