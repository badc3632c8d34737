/**
 * Raw exports (every stored gaming event or click of a range, streamed) and the scheduled exports
 * of those rows to S3-compatible object storage (docs/reference/exports.md).
 */
import Type, { type Static } from 'typebox'
import { Nullable, StringEnum, Timestamp } from './common.js'
import { DATE_PATTERN, DAY_PATTERN, VisibleText } from './text.js'
import { EXPORT_DESTINATION_LIMITS, RAW_DATASETS, RAW_FORMATS } from './limits.js'

export { EXPORT_DESTINATION_LIMITS } from './limits.js'

export { RAW_DATASETS, RAW_FORMATS, type RawDataset, type RawFormat } from './limits.js'
export { RAW_CLICK_COLUMNS, RAW_EVENT_COLUMNS } from './raw-columns.js'

const Day = Type.String({
  pattern: DATE_PATTERN,
  description: 'ISO 8601 date or date-time (UTC); the whole UTC day is included',
})
const Format = StringEnum(RAW_FORMATS, {
  default: 'ndjson',
  description: 'ndjson (one JSON object a line), csv (RFC 4180, header row) or parquet',
})
const Range = {
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
  format: Type.Optional(Format),
}

export const RawEventsExportQuery = Type.Object({
  type: StringEnum(['raw_events'] as const),
  gameId: Type.String({ minLength: 1, maxLength: 64 }),
  ...Range,
})
export type RawEventsExportQuery = Static<typeof RawEventsExportQuery>

export const ClicksExportQuery = Type.Object({
  linkId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'One link; default every link' }),
  ),
  ...Range,
})
export type ClicksExportQuery = Static<typeof ClicksExportQuery>

const Bucket = Type.String({
  pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
  description: 'S3 bucket name: 3-63 lower-case letters, digits, dots and hyphens',
})
const Endpoint = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Base URL of an S3-compatible store (MinIO, R2, …; path-style requests); leave out for AWS S3 itself',
})
const Prefix = Type.String({
  maxLength: EXPORT_DESTINATION_LIMITS.prefixMax,
  description: 'Key prefix of every object (no leading or trailing slash needed; no empty, . or .. segments)',
})
const Region = VisibleText({ minLength: 1, maxLength: 64, description: 'Default us-east-1' })
const Datasets = Type.Array(StringEnum(RAW_DATASETS), {
  minItems: 1,
  maxItems: RAW_DATASETS.length,
  uniqueItems: true,
  description: 'raw_events needs a gameId',
})

export const CreateExportDestinationBody = Type.Object(
  {
    kind: Type.Optional(StringEnum(['s3'] as const, { default: 's3' })),
    endpoint: Type.Optional(Nullable(Endpoint)),
    bucket: Bucket,
    prefix: Type.Optional(Prefix),
    region: Type.Optional(Region),
    accessKeyId: VisibleText({ minLength: 1, maxLength: 128 }),
    secretAccessKey: Type.String({
      minLength: 1,
      maxLength: 256,
      writeOnly: true,
      description: 'Stored encrypted; never returned',
    }),
    format: Type.Optional(StringEnum(RAW_FORMATS, { default: 'parquet' })),
    datasets: Datasets,
    gameId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  },
  { additionalProperties: false },
)
export type CreateExportDestinationBody = Static<typeof CreateExportDestinationBody>

export const ExportDestination = Type.Object(
  {
    id: Type.String({ examples: ['exd_3kTMd9Qx2bLw'] }),
    kind: StringEnum(['s3'] as const),
    endpoint: Nullable(Type.String()),
    bucket: Type.String(),
    prefix: Type.String(),
    region: Type.String(),
    accessKeyId: Type.String(),
    format: StringEnum(RAW_FORMATS),
    datasets: Type.Array(StringEnum(RAW_DATASETS)),
    gameId: Nullable(Type.String()),
    createdAt: Timestamp,
    lastRunAt: Nullable(Timestamp),
    lastSuccessAt: Nullable(Timestamp),
    lastExportedDate: Nullable(
      Type.String({
        description:
          'The UTC day (YYYY-MM-DD) up to which every day is written: the daily job writes its raw events again once (events come up to 24 h late), then resumes after it',
      }),
    ),
    lastError: Nullable(
      Type.String({ description: "The last failed run's error, null once a run succeeds" }),
    ),
  },
  { $id: 'ExportDestination', title: 'ExportDestination' },
)
export type ExportDestination = Static<typeof ExportDestination>

export const RunExportBody = Type.Object(
  {
    date: Type.Optional(
      Type.String({
        pattern: DAY_PATTERN,
        description: 'The UTC day to write (YYYY-MM-DD); default yesterday',
      }),
    ),
  },
  { additionalProperties: false },
)
export type RunExportBody = Static<typeof RunExportBody>

export const ExportRun = Type.Object({
  destinationId: Type.String(),
  date: Type.String(),
  objects: Type.Array(
    Type.Object({
      dataset: StringEnum(RAW_DATASETS),
      key: Type.String(),
      rows: Type.Integer(),
      bytes: Type.Integer(),
    }),
  ),
})
export type ExportRun = Static<typeof ExportRun>
