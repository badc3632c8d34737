import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
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

/** The database (8 MB) is read on the first lookup, not at start-up. */
export function openGeo(path?: string): Geo {
  let reader: Reader<CountryRecord> | undefined
  return {
    country(ip) {
      try {
        reader ??= new Reader<CountryRecord>(readFileSync(path ?? require.resolve(DB)))
        const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
        return reader.get(v4mapped ? v4mapped[1]! : ip)?.country_code ?? null
      } catch {
        return null
      }
    },
  }
}
