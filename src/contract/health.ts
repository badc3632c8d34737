import Type, { type Static } from 'typebox'
import { Nullable, StringEnum, Timestamp } from './common.js'

export const JobStatus = Type.Object({
  name: Type.String(),
  lastRunAt: Nullable(Timestamp),
  lastStatus: Nullable(StringEnum(['ok', 'error'])),
  lastError: Nullable(Type.String()),
  lastDurationMs: Nullable(Type.Integer()),
})
export type JobStatus = Static<typeof JobStatus>

export const Health = Type.Object(
  {
    status: StringEnum(['ok', 'degraded', 'down']),
    version: Type.String(),
    uptimeSeconds: Type.Number(),
    checks: Type.Optional(
      Type.Object({
        database: StringEnum(['ok', 'down']),
        migrations: StringEnum(['ok', 'pending']),
      }),
    ),
    jobs: Type.Optional(Type.Array(JobStatus)),
    clicks: Type.Optional(
      Type.Object(
        {
          buffered: Type.Integer({ description: 'Clicks waiting to be written (flushed within a second)' }),
          dropped: Type.Integer({
            description: 'Clicks given up since the daemon started: the database kept refusing them',
          }),
          writeError: Nullable(
            Type.String({
              description: 'Error code of the last click flush when it failed, e.g. SQLITE_FULL',
            }),
          ),
        },
        {
          description: 'Click recording (GET /health/ready only); a failing flush makes the status degraded',
        },
      ),
    ),
    skan: Type.Optional(
      Type.Object(
        {
          droppedPostbacks: Type.Integer({
            description:
              'Postbacks anyone could have posted (unverified, or matching no campaign) dropped since the daemon started, the oldest first, to stay within LINKD_SKAN_HELD_MAX and LINKD_SKAN_HELD_MAX_BYTES',
          }),
        },
        { description: 'SKAN postbacks (GET /health/ready only)' },
      ),
    ),
  },
  { $id: 'Health', title: 'Health' },
)
export type Health = Static<typeof Health>

export const Discovery = Type.Object(
  {
    name: Type.String(),
    version: Type.String({ description: 'Public API version (v1)' }),
    serverVersion: Type.String(),
    status: StringEnum(['ok', 'degraded', 'down']),
    documentation: Type.Object({ openapi: Type.String(), ui: Type.String(), postman: Type.String() }),
    authentication: Type.Array(Type.String()),
    features: Type.Object(
      {
        gaming: Type.Boolean({
          description:
            'Gaming Intelligence is on (NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED); false: no gaming route',
        }),
      },
      { description: 'Optional parts of linkd and whether this server has them' },
    ),
    routes: Type.Array(
      Type.Object({ method: Type.String(), path: Type.String(), permission: Nullable(Type.String()) }),
    ),
  },
  { $id: 'Discovery', title: 'Discovery' },
)
export type Discovery = Static<typeof Discovery>
