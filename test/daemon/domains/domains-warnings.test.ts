/**
 * Custom domains in the default set-up: when the CNAME target is an IP address,
 * localhost, or the short domain with a port, POST and GET of a domain carry `warnings` naming
 * LINKD_CNAME_TARGET; a usable target carries none.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import type { Domain } from '../../../src/contract/domains.js'

describe('domain warnings', () => {
  let t: TestApp | undefined
  afterEach(() => t?.close())

  async function addWith(config: Record<string, unknown>, domain = 'go.example.test'): Promise<Domain> {
    t = await createTestApp(config)
    const res = await t.call('POST', '/api/domains', { body: { domain } })
    expect(res.statusCode, res.body).toBe(201)
    const added = res.json<Domain>()
    const got = (await t.call('GET', `/api/domains/${added.id}`)).json<Domain>()
    expect(got.warnings).toEqual(added.warnings)
    return added
  }

  it.each([
    [{ publicUrl: 'http://127.0.0.1:8080' }, /^the CNAME target 127\.0\.0\.1 is an IP address: /],
    [{ cnameTarget: 'localhost' }, /^the CNAME target localhost is localhost: /],
    [
      { publicUrl: 'http://links.example.test:8080' },
      /^the CNAME target links\.example\.test comes from the short domain links\.example\.test:8080, and DNS cannot point at a port: /,
    ],
  ])('%j: a warning naming LINKD_CNAME_TARGET', async (config, why) => {
    const d = await addWith(config)
    expect(d.warnings).toHaveLength(1)
    expect(d.warnings[0]).toMatch(why)
    expect(d.warnings[0]).toContain('Set LINKD_CNAME_TARGET to a public host name of this server')
  })

  it('a host name without a port as target: no warning', async () => {
    expect((await addWith({ cnameTarget: 'links.example.test' })).warnings).toEqual([])
    await t?.close()
    expect((await addWith({ publicUrl: 'https://sho.rt' })).warnings).toEqual([])
  })

  it('an apex domain with a loopback LINKD_A_RECORD_IP: a warning naming it', async () => {
    const d = await addWith({ cnameTarget: 'links.example.test', aRecordIp: '127.0.0.1' }, 'example.test')
    expect(d.warnings).toEqual([
      expect.stringMatching(/^LINKD_A_RECORD_IP is 127\.0\.0\.1, a loopback address/),
    ])
  })
})
