import { readFileSync } from 'node:fs'
import { Reader, type Response } from 'maxmind'
import { isPublicIp, unmap } from '../../geo.js'
import { boundedMemo, type Memo } from './memo.js'

/** Where a click came from. Region and city only with a city database configured. */
export interface Place {
  /** ISO 3166-1 alpha-2, or null for private and unknown addresses. */
  country: string | null
  region: string | null
  city: string | null
}

/**
 * Both record shapes of the city databases people have: MaxMind's GeoIP2/GeoLite2-City
 * (`country.iso_code`, `subdivisions[0].names.en`, `city.names.en`) and the flat one of the
 * ip-location-db packages (`country_code`, `state1`, `city`).
 */
type CityRecord = Response & {
  country?: { iso_code?: string }
  subdivisions?: Array<{ names?: Record<string, string> }>
  city?: { names?: Record<string, string> } | string
  country_code?: string
  state1?: string
}

const text = (v: unknown, max = 120): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null

export type Locate = (ip: string) => Place

/** Distinct addresses whose place is remembered at most. */
export const PLACE_CACHE_MAX = 10_000

const NOWHERE: Place = { country: null, region: null, city: null }

/**
 * IP → place. The country comes from `countryOf` (the database shipped in the npm package, see
 * daemon/geo.ts) unless the optional MaxMind-format city database knows better; that database is
 * read once here, so a wrong path fails at start-up rather than on the first click.
 */
export function createLocator(countryOf: (ip: string) => string | null, cityDbPath?: string): Memo<Place> {
  // Recent addresses repeat (the same visitors click again): remember their place for a while.
  return boundedMemo(lookup(countryOf, cityDbPath), PLACE_CACHE_MAX)
}

/** IP → place, looked up afresh every time. */
export function lookup(countryOf: (ip: string) => string | null, cityDbPath?: string): Locate {
  if (!cityDbPath)
    return (ip) => (isPublicIp(ip) ? { country: countryOf(ip), region: null, city: null } : NOWHERE)
  let reader: Reader<CityRecord>
  try {
    reader = new Reader<CityRecord>(readFileSync(cityDbPath))
  } catch (err) {
    throw new Error(
      `LINKD_GEO_CITY_DB / --geo-city-db: cannot read the city database ${cityDbPath}: ${(err as Error).message}`,
      { cause: err },
    )
  }
  return (ip) => {
    if (!isPublicIp(ip)) return NOWHERE
    let rec: CityRecord | null
    try {
      rec = reader.get(unmap(ip))
    } catch {
      rec = null
    }
    if (!rec) return { country: countryOf(ip), region: null, city: null }
    const country = text(rec.country?.iso_code ?? rec.country_code, 2)?.toUpperCase() ?? countryOf(ip)
    const city = typeof rec.city === 'string' ? text(rec.city) : text(rec.city?.names?.en)
    return { country, region: text(rec.subdivisions?.[0]?.names?.en ?? rec.state1), city }
  }
}

// Built on first use: ICU's region names are several MB of memory a daemon may never touch.
let displayNames: Intl.DisplayNames | undefined

/** English name of an ISO 3166-1 alpha-2 code ("US" → "United States"). */
export function countryName(code: string | null): string | null {
  if (!code) return null
  try {
    displayNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
    return displayNames.of(code) ?? code
  } catch {
    return code
  }
}
