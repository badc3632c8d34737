/**
 * JSON Schemas of what Slack's and Discord's incoming webhooks accept, written from their
 * documentation: Slack's "Sending messages using incoming webhooks" and Block Kit reference
 * (text up to 40,000 characters, at most 50 blocks; a section's text up to 3,000, at most 10
 * fields of up to 2,000; a context block's up to 10 elements) and Discord's "Execute Webhook"
 * and embed object (content up to 2,000; at most 10 embeds; title 256, description 4,096, at
 * most 25 fields of name 256 and value 1,024, footer text 2,048, and 6,000 characters in all,
 * checked by `discordEmbedChars`).
 */
const slackText = (max: number) => ({
  type: 'object',
  required: ['type', 'text'],
  additionalProperties: false,
  properties: {
    type: { enum: ['plain_text', 'mrkdwn'] },
    text: { type: 'string', minLength: 1, maxLength: max },
    emoji: { type: 'boolean' },
    verbatim: { type: 'boolean' },
  },
})

const slackSection = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { const: 'section' },
    text: slackText(3000),
    fields: { type: 'array', minItems: 1, maxItems: 10, items: slackText(2000) },
    block_id: { type: 'string', maxLength: 255 },
  },
  anyOf: [{ required: ['text'] }, { required: ['fields'] }],
}

const slackContext = {
  type: 'object',
  required: ['type', 'elements'],
  additionalProperties: false,
  properties: {
    type: { const: 'context' },
    elements: { type: 'array', minItems: 1, maxItems: 10, items: slackText(3000) },
    block_id: { type: 'string', maxLength: 255 },
  },
}

const slackHeader = {
  type: 'object',
  required: ['type', 'text'],
  additionalProperties: false,
  properties: {
    type: { const: 'header' },
    text: { ...slackText(150), properties: { ...slackText(150).properties, type: { const: 'plain_text' } } },
    block_id: { type: 'string', maxLength: 255 },
  },
}

const slackDivider = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: { type: { const: 'divider' }, block_id: { type: 'string', maxLength: 255 } },
}

export const SLACK_INCOMING_WEBHOOK = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Slack incoming webhook message',
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 40_000 },
    blocks: {
      type: 'array',
      maxItems: 50,
      items: { oneOf: [slackSection, slackContext, slackHeader, slackDivider] },
    },
    mrkdwn: { type: 'boolean' },
    unfurl_links: { type: 'boolean' },
    unfurl_media: { type: 'boolean' },
    thread_ts: { type: 'string' },
  },
}

const discordEmbed = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', maxLength: 256 },
    type: { const: 'rich' },
    description: { type: 'string', maxLength: 4096 },
    url: { type: 'string', format: 'uri' },
    timestamp: { type: 'string', format: 'date-time' },
    color: { type: 'integer', minimum: 0, maximum: 0xffffff },
    footer: {
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: {
        text: { type: 'string', minLength: 1, maxLength: 2048 },
        icon_url: { type: 'string', format: 'uri' },
      },
    },
    author: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', maxLength: 256 }, url: { type: 'string', format: 'uri' } },
    },
    fields: {
      type: 'array',
      maxItems: 25,
      items: {
        type: 'object',
        required: ['name', 'value'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 256 },
          value: { type: 'string', minLength: 1, maxLength: 1024 },
          inline: { type: 'boolean' },
        },
      },
    },
  },
}

export const DISCORD_EXECUTE_WEBHOOK = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Discord Execute Webhook JSON body',
  type: 'object',
  additionalProperties: false,
  anyOf: [{ required: ['content'] }, { required: ['embeds'] }],
  properties: {
    content: { type: 'string', maxLength: 2000 },
    username: { type: 'string', minLength: 1, maxLength: 80 },
    avatar_url: { type: 'string', format: 'uri' },
    tts: { type: 'boolean' },
    embeds: { type: 'array', maxItems: 10, items: discordEmbed },
    allowed_mentions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        parse: { type: 'array', items: { enum: ['roles', 'users', 'everyone'] } },
        roles: { type: 'array', maxItems: 100, items: { type: 'string' } },
        users: { type: 'array', maxItems: 100, items: { type: 'string' } },
        replied_user: { type: 'boolean' },
      },
    },
    flags: { type: 'integer' },
    thread_name: { type: 'string' },
  },
}

interface DiscordEmbed {
  title?: string
  description?: string
  footer?: { text: string }
  author?: { name: string }
  fields?: Array<{ name: string; value: string }>
}

/** Characters Discord counts against an embed's 6,000 total. */
export function discordEmbedChars(e: DiscordEmbed): number {
  return (
    (e.title?.length ?? 0) +
    (e.description?.length ?? 0) +
    (e.footer?.text.length ?? 0) +
    (e.author?.name.length ?? 0) +
    (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  )
}
