/** Destination safety lists (`/api/safety/lists`): feed files of hosts that link destinations may not use. */
import Type, { type Static } from 'typebox'
import { StringEnum, Timestamp } from './common.js'
import { SAFETY_FORMATS, SAFETY_LIMITS } from './limits.js'

export { SAFETY_FORMATS, SAFETY_LIMITS, type SafetyFormat } from './limits.js'

export const SafetyListName = Type.String({
  minLength: 1,
  maxLength: SAFETY_LIMITS.nameMax,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
  description:
    'Letters, digits, dot, dash and underscore; a new upload under the same name replaces the list',
  examples: ['urlhaus'],
})

export const UploadSafetyListQuery = Type.Object({
  name: SafetyListName,
  format: Type.Optional(
    StringEnum([...SAFETY_FORMATS, 'auto'], {
      default: 'auto',
      description:
        'hosts (`0.0.0.0 host` lines), domains (one host a line) or urlhaus (URLhaus CSV: the host of each URL); auto guesses from the first line that is not a comment',
    }),
  ),
})
export type UploadSafetyListQuery = Static<typeof UploadSafetyListQuery>

export const SafetyList = Type.Object({
  id: Type.String({ examples: ['sfl_9f3a1c2e4b5d6a7f'] }),
  name: Type.String(),
  format: StringEnum(SAFETY_FORMATS),
  entries: Type.Integer({ description: 'Distinct hosts on the list' }),
  skipped: Type.Integer({ description: 'Lines of the file that held no host (neither comments nor blank)' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type SafetyList = Static<typeof SafetyList>

export const SafetyListParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
export type SafetyListParams = Static<typeof SafetyListParams>

/** Present while a destination of the link is on a safety list: visits get a warning page. */
export const LinkFlagged = Type.Object(
  {
    host: Type.String({ description: 'The listed host (the destination host or a parent domain of it)' }),
    list: Type.String({ description: "The safety list's name" }),
    flaggedAt: Timestamp,
  },
  {
    description:
      'Present while a destination is on one of the safety lists (found after the link was written): visits get a warning page instead of the redirect',
  },
)
