/**
 * Chat-ready webhooks: the slack and discord formats for every event of the catalog, validated
 * against the services' documented limits (JSON Schemas in test/support/chat-schemas.ts), cut to
 * size when data is long, and delivered to a real receiver with the usual signature headers.
 */
import { createHmac } from 'node:crypto'
import { Ajv } from 'ajv'
import formats from 'ajv-formats'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENTS } from '../../../src/contract/limits.js'
import { sampleData } from '../../../daemon/modules/webhooks/catalog.js'
import { CHAT_LIMITS, deliveryBody, type Envelope } from '../../../daemon/modules/webhooks/chat.js'
import {
  DISCORD_EXECUTE_WEBHOOK,
  SLACK_INCOMING_WEBHOOK,
  discordEmbedChars,
} from '../../support/chat-schemas.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

const ajv = new Ajv({ allErrors: true, strict: false })
// ajv-formats is CommonJS: its function is the default export's `default`.
formats.default(ajv)
const slackValid = ajv.compile(SLACK_INCOMING_WEBHOOK)
const discordValid = ajv.compile(DISCORD_EXECUTE_WEBHOOK)

const envelope = (event: string, data: Record<string, unknown>): Envelope => ({
  id: 'evt_1',
  event,
  timestamp: '2026-11-21T10:00:00.000Z',
  organizationId: 'org_1',
  organization: { id: 'org_1', name: 'Acme <Growth> & Co' },
  data,
})

describe('slack and discord bodies', () => {
  it.each(WEBHOOK_EVENTS)('%s: both formats match the documented schemas', (event) => {
    const e = envelope(event, sampleData(event, 'https://sho.rt', Date.UTC(2026, 10, 21)))
    const s = JSON.parse(deliveryBody('slack', e))
    expect(slackValid(s), JSON.stringify(slackValid.errors)).toBe(true)
    expect(s.blocks.length).toBeGreaterThan(0)
    const d = JSON.parse(deliveryBody('discord', e))
    expect(discordValid(d), JSON.stringify(discordValid.errors)).toBe(true)
    expect(d.embeds).toHaveLength(1)
    expect(discordEmbedChars(d.embeds[0])).toBeLessThanOrEqual(6000)
    expect(d.embeds[0].footer.text).toContain(event)
    expect(JSON.parse(deliveryBody('json', e))).toEqual(e)
  })

  it('shows the link and the key figures: link.flagged names host and list', () => {
    const e = envelope('link.flagged', {
      linkId: 'lnk_1',
      shortUrl: 'https://sho.rt/abc',
      host: 'phish.test',
      list: 'urlhaus',
      flaggedAt: '2026-11-21T10:00:00.000Z',
    })
    const s = JSON.parse(deliveryBody('slack', e))
    expect(s.text).toBe(
      'Link flagged by a safety list: https://sho.rt/abc (host: phish.test, list: urlhaus, linkId: lnk_1, flaggedAt: 2026-11-21T10:00:00.000Z)',
    )
    expect(s.blocks[0].text.text).toBe('*Link flagged by a safety list*: <https://sho.rt/abc>')
    expect(s.blocks[1].fields.slice(0, 2).map((f: { text: string }) => f.text)).toEqual([
      '*host*\nphish.test',
      '*list*\nurlhaus',
    ])
    // The organization's name is escaped: no stray markup.
    expect(s.blocks[2].elements[0].text).toBe(
      '`link.flagged` · 2026-11-21T10:00:00.000Z · Acme &lt;Growth&gt; &amp; Co',
    )
    const d = JSON.parse(deliveryBody('discord', e))
    expect(d.content).toBe('Link flagged by a safety list: https://sho.rt/abc')
    expect(d.embeds[0]).toMatchObject({
      title: 'Link flagged by a safety list',
      url: 'https://sho.rt/abc',
      timestamp: '2026-11-21T10:00:00.000Z',
      fields: expect.arrayContaining([{ name: 'host', value: 'phish.test', inline: true }]),
    })
    expect(d.allowed_mentions).toEqual({ parse: [] })
  })

  it('discord: markdown in data shows as typed (no disguised link, no bold); URLs stay links', () => {
    const e = envelope('link.created', {
      id: 'lnk_1',
      shortUrl: 'https://sho.rt/abc',
      destinationUrl: 'https://example.com/a_b_c*d',
      title: '[Verify your account](https://phish.test) *now* ||x|| `y`',
    })
    const d = JSON.parse(deliveryBody('discord', e))
    const field = (name: string) =>
      (d.embeds[0].fields as Array<{ name: string; value: string }>).find((f) => f.name === name)?.value
    expect(field('title')).toBe(
      '\\[Verify your account\\]\\(https://phish.test\\) \\*now\\* \\|\\|x\\|\\| \\`y\\`',
    )
    expect(field('destinationUrl')).toBe('https://example.com/a_b_c*d')
    expect(d.embeds[0].footer.text).toBe('link.created · Acme <Growth> & Co')
  })

  it('long data is cut to the limits; mentions in data stay text', () => {
    const long = 'x'.repeat(50_000)
    const e = envelope('link.created', {
      id: 'lnk_1',
      shortUrl: `https://sho.rt/${'a'.repeat(5000)}`,
      destinationUrl: `https://example.com/${long}`,
      title: '<!channel> @everyone look',
      tags: Array.from({ length: 500 }, (_, i) => `tag-${i}`),
    })
    const s = JSON.parse(deliveryBody('slack', e))
    expect(slackValid(s), JSON.stringify(slackValid.errors)).toBe(true)
    expect(JSON.stringify(s)).not.toContain('<!channel>')
    const d = JSON.parse(deliveryBody('discord', e))
    expect(discordValid(d), JSON.stringify(discordValid.errors)).toBe(true)
    expect(discordEmbedChars(d.embeds[0])).toBeLessThanOrEqual(6000)
  })

  it('a cut never splits an escape (&amp;, \\*) nor a character made of two UTF-16 units', () => {
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
    for (let k = 0; k < 5; k++) {
      const pad = 'a'.repeat(k)
      const slackOf = (title: string) =>
        JSON.parse(deliveryBody('slack', envelope('link.created', { id: 'lnk_1', title }))) as {
          text: string
          blocks: Array<{ fields?: Array<{ text: string }> }>
        }
      const field = (title: string) =>
        slackOf(title).blocks[1]!.fields!.find((f) => f.text.startsWith('*title*'))!.text
      const amp = field(`${pad}${'&'.repeat(1000)}`)
      expect(amp.length).toBeLessThanOrEqual(CHAT_LIMITS.slackFieldText)
      expect(amp).toMatch(new RegExp(`^\\*title\\*\\n${pad}(&amp;)+…$`))
      expect(slackOf(`${pad}${'<'.repeat(11_000)}`).text).toMatch(
        new RegExp(`^Link created \\(title: ${pad}(&lt;)+…$`),
      )
      const d = JSON.parse(
        deliveryBody('discord', envelope('link.created', { id: 'lnk_1', title: `${pad}${'*'.repeat(500)}` })),
      ) as { embeds: Array<{ fields: Array<{ name: string; value: string }> }> }
      expect(d.embeds[0]!.fields.find((f) => f.name === 'title')!.value).toMatch(
        new RegExp(`^${pad}(\\\\\\*)+…$`),
      )
      const emoji = JSON.parse(
        deliveryBody(
          'discord',
          envelope('link.created', { id: 'lnk_1', title: `${pad}${'😀'.repeat(300)}` }),
        ),
      ) as { embeds: Array<{ fields: Array<{ name: string; value: string }> }> }
      expect(emoji.embeds[0]!.fields.find((f) => f.name === 'title')!.value).not.toMatch(lone)
    }
  })
})

describe('chat formats delivered', () => {
  let t: TestApp
  let rx: Receiver
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
    rx = await startReceiver()
  })
  afterEach(async () => {
    await t.close()
    await rx.close()
  })

  it('a slack endpoint gets {text, blocks}, a discord one {content, embeds}, both signed', async () => {
    const made: Record<string, { id: string; secret: string }> = {}
    for (const format of ['slack', 'discord', 'json'] as const) {
      const res = await t.call('POST', '/api/webhooks', {
        body: { name: format, url: `${rx.url}?f=${format}`, events: ['link.created'], format },
      })
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json().format).toBe(format)
      made[format] = res.json()
    }
    const link = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/x' } })
    expect(link.statusCode).toBe(201)
    await t.app.linkd.services.webhooks.settle()
    await t.app.linkd.services.webhooks.worker.runDue()
    const got = await rx.waitFor(3)
    const by = (f: string) => got.find((r) => r.url.endsWith(`f=${f}`))!
    for (const f of ['slack', 'discord', 'json']) {
      const r = by(f)
      expect(r.headers['x-webhook-event']).toBe('link.created')
      expect(r.headers['content-type']).toBe('application/json')
      const ts = r.headers['x-webhook-timestamp'] as string
      const sig = createHmac('sha256', made[f]!.secret)
        .update(Buffer.concat([Buffer.from(`${ts}.`), r.raw]))
        .digest('hex')
      expect(r.headers['x-webhook-signature']).toBe(`sha256=${sig}`)
    }
    const slack = JSON.parse(by('slack').raw.toString())
    expect(slackValid(slack)).toBe(true)
    expect(slack.text).toContain(link.json().shortUrl)
    const discord = JSON.parse(by('discord').raw.toString())
    expect(discordValid(discord)).toBe(true)
    expect(discord.embeds[0].url).toBe(link.json().shortUrl)
    expect(JSON.parse(by('json').raw.toString())).toMatchObject({ event: 'link.created' })

    // The format changes by PATCH; the test action uses it too.
    const patch = await t.call('PATCH', `/api/webhooks/${made.json!.id}`, { body: { format: 'discord' } })
    expect(patch.json().format).toBe('discord')
    const test = await t.call('POST', `/api/webhooks/${made.slack!.id}/test`, {
      body: { event: 'link.flagged' },
    })
    expect(test.statusCode, test.body).toBeLessThan(300)
    const [, , , sent] = await rx.waitFor(4)
    const body = JSON.parse(sent!.raw.toString())
    expect(slackValid(body)).toBe(true)
    expect(body.text).toContain('(test)')
    expect(
      (
        await t.call('POST', '/api/webhooks', {
          body: { name: 'x', url: rx.url, events: ['link.created'], format: 'teams' },
        })
      ).statusCode,
    ).toBe(400)
  })

  it('a Slack or Discord webhook URL with a format it refuses is a 400 naming the one it takes', async () => {
    const create = (url: string, format?: string) =>
      t.call('POST', '/api/webhooks', {
        body: { name: 'chat', url, events: ['link.created'], ...(format && { format }) },
      })
    const slackUrl = 'https://hooks.slack.com/services/T000/B000/XXXX'
    const discordUrl = 'https://discord.com/api/webhooks/123/abc'
    for (const [url, format, takes] of [
      [slackUrl, undefined, 'slack'],
      [slackUrl, 'discord', 'slack'],
      [discordUrl, 'json', 'discord'],
      ['https://discordapp.com/api/v10/webhooks/123/abc', 'slack', 'discord'],
      [`${discordUrl}/slack`, 'discord', 'slack'],
    ] as const) {
      const res = await create(url, format)
      expect(res.statusCode, `${url} ${format}: ${res.body}`).toBe(400)
      expect(res.json().details).toEqual([
        { field: 'format', message: expect.stringContaining(`takes format '${takes}'`) },
      ])
    }
    // The formats they take; a Slack workflow trigger takes any JSON.
    expect((await create(slackUrl, 'slack')).statusCode).toBe(201)
    expect((await create(discordUrl, 'discord')).statusCode).toBe(201)
    expect((await create(`${discordUrl}/slack`, 'slack')).statusCode).toBe(201)
    const workflow = await create('https://hooks.slack.com/triggers/T000/123/abc')
    expect(workflow.statusCode).toBe(201)
    // PATCH checks the URL and format the webhook ends up with.
    const id = workflow.json().id
    const patch = await t.call('PATCH', `/api/webhooks/${id}`, { body: { url: slackUrl } })
    expect(patch.statusCode, patch.body).toBe(400)
    expect(patch.json().details[0].field).toBe('format')
    const both = await t.call('PATCH', `/api/webhooks/${id}`, { body: { url: slackUrl, format: 'slack' } })
    expect(both.statusCode, both.body).toBe(200)
    const back = await t.call('PATCH', `/api/webhooks/${id}`, { body: { format: 'json' } })
    expect(back.statusCode).toBe(400)
  })
})
