import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Reader, type Response } from 'maxmind'
import { addressRange, parseAddress } from './addresses.js'

type CountryRecord = Response & { country_code?: string }

/**
 * IP → ISO 3166-1 alpha-2 country, from the CC0 geo-whois-asn-country database shipped inside an
 * npm package: no licence key, no download at run time. Private and unknown addresses give null.
 */
export interface Geo {
  country(ip: string): string | null
}

const require = createRequire(import.meta.url)
const DB = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb'

/** The address as the databases index it: IPv4 for every IPv4 spelling (`::ffff:1.2.3.4` → `1.2.3.4`). */
export function unmap(ip: string): string {
  return parseAddress(ip)?.toString() ?? ip
}

/**
 * Whether an address is public. Private, loopback, CGNAT and other reserved ranges have no place
 * (the bundled whois-based database assigns some of them, e.g. 192.168.0.0/16, a country).
 */
export function isPublicIp(ip: string): boolean {
  return addressRange(ip) === 'unicast'
}

/** Addresses whose country is kept (a burst of clicks or batches comes from few); then cleared. */
const KNOWN_MAX = 10_000

/**
 * The database (8 MB) is read on the first lookup, not at start-up. The countries of the last
 * addresses looked up are kept: parsing an address and walking the tree cost more than the
 * look-up of a click or a batch.
 */
export function openGeo(path?: string): Geo {
  let reader: Reader<CountryRecord> | undefined
  const known = new Map<string, string | null>()
  const lookUp = (ip: string): string | null => {
    if (!isPublicIp(ip)) return null
    try {
      reader ??= new Reader<CountryRecord>(readFileSync(path ?? require.resolve(DB)))
      return reader.get(unmap(ip))?.country_code ?? null
    } catch {
      return null
    }
  }
  return {
    country(ip) {
      const hit = known.get(ip)
      if (hit !== undefined) return hit
      const country = lookUp(ip)
      if (known.size >= KNOWN_MAX) known.clear()
      known.set(ip, country)
      return country
    },
  }
}
