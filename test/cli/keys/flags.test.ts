import { describe, expect, it } from 'vitest'
import { PRESETS } from '../../../src/contract/scopes.js'
import { Command } from 'commander'
import { createBody, keyFieldOptions, updateBody } from '../../../src/cli/commands/keys/shared.js'
import { UsageError } from '../../../src/session/exit-codes.js'
import { parseExpiry } from '../../../src/cli/parse.js'

describe('flags', () => {
  it('create: --permissions and repeated --scope merge without duplicates', () => {
    expect(
      createBody({ name: 'x', permissions: ['links:read', 'links:write'], scope: ['links:read', 'qr:read'] }),
    ).toEqual({
      name: 'x',
      permissions: ['links:read', 'links:write', 'qr:read'],
    })
    expect(() => createBody({ name: ' ' })).toThrow(UsageError)
  })

  it('update: "" clears the description, never (null) clears the expiry, --clear-* empty the lists', () => {
    expect(
      updateBody({
        description: '',
        expiresAt: null,
        clearAllowedIps: true,
        allowedOrigin: ['https://a.example'],
      }),
    ).toEqual({
      description: null,
      expiresAt: null,
      allowedIps: [],
      allowedOrigins: ['https://a.example'],
    })
    expect(updateBody({ preset: 'read-only' })).toEqual({ permissions: [...PRESETS['read-only']] })
    // --scope on update sets the key's whole list, as its help says (it said "add one scope").
    expect(updateBody({ scope: ['keys:read'] })).toEqual({ permissions: ['keys:read'] })
    const help = keyFieldOptions(new Command('update'), 'update').helpInformation({ error: false })
    expect(help.replace(/\s+/g, ' ')).toContain('the key gets the scopes given, no others')
    expect(() => updateBody({})).toThrow(/nothing to update/)
  })

  it('--expires-at accepts dates, date-times, durations and never', () => {
    const now = Date.parse('2026-11-21T10:00:00.000Z')
    expect(parseExpiry('2026-12-31', now)).toBe('2026-12-31T00:00:00.000Z')
    expect(parseExpiry('2026-12-31T12:30:00+02:00', now)).toBe('2026-12-31T10:30:00.000Z')
    expect(parseExpiry('30d', now)).toBe('2026-12-21T10:00:00.000Z')
    expect(parseExpiry('12h', now)).toBe('2026-11-21T22:00:00.000Z')
    expect(parseExpiry('2w', now)).toBe('2026-12-05T10:00:00.000Z')
    expect(parseExpiry('never', now)).toBeNull()
    expect(() => parseExpiry('next tuesday', now)).toThrow(/expected an ISO date/)
    expect(() => parseExpiry('2026-13-45', now)).toThrow(/expected an ISO date/)
  })
})
