/**
 * The columns of the raw export files (docs/reference/exports.md), apart from the typebox schemas so
 * that linkctl can name them without loading typebox at start-up.
 */
/** The columns of each dataset, in file order. */
export const RAW_EVENT_COLUMNS = [
  'eventId',
  'type',
  'playerId',
  'sessionId',
  'ts',
  'platform',
  'country',
  'data',
] as const
export const RAW_CLICK_COLUMNS = [
  'clickId',
  'linkId',
  'ts',
  'country',
  'region',
  'device',
  'browser',
  'os',
  'referrer',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'bot',
  'qrCodeId',
  'variant',
] as const
