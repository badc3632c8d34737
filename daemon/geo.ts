import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import ipaddr from 'ipaddr.js'
import { Reader, type Response } from 'maxmind'

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

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything else unchanged. */
export function unmap(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  return m ? m[1]! : ip
}

/**
 * Whether an address is public. Private, loopback, CGNAT and other reserved ranges have no place
 * (the bundled whois-based database assigns some of them, e.g. 192.168.0.0/16, a country).
 */
export function isPublicIp(ip: string): boolean {
  try {
    return ipaddr.process(ip).range() === 'unicast'
  } catch {
    return false
  }
}

/** The database (8 MB) is read on the first lookup, not at start-up. */
export function openGeo(path?: string): Geo {
  let reader: Reader<CountryRecord> | undefined
  return {
    country(ip) {
      if (!isPublicIp(ip)) return null
      try {
        reader ??= new Reader<CountryRecord>(readFileSync(path ?? require.resolve(DB)))
        return reader.get(unmap(ip))?.country_code ?? null
      } catch {
        return null
      }
    },
  }
}
