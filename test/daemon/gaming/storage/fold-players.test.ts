/** The profiles layer of the fold: new players, first-touch fields, activity and install moves. */
import { describe, expect, it } from 'vitest'
import {
  countryKind,
  foldPlayer,
  profileWrites,
} from '../../../../daemon/modules/gaming/storage/fold/players.js'
import { D, DAY, MIN, T0, ev, profile, snapshot, state } from './fold-fixtures.js'

const dimsOf = (st: ReturnType<typeof state>) =>
  [...st.dims.values()].map(({ day, dim, value, counters }) => [day - D, dim, value, counters.new_players])

describe('fold: player profiles', () => {
  it('a new player: the profile from its first event, counted as a new player on the day and its dimensions', () => {
    const st = state()
    const event = ev({
      ts: T0,
      playerId: 'p9',
      platform: 'android',
      country: 'FR',
      deviceFingerprint: 'fp-9',
      attribution: { affiliate: null, campaign: 'summer', source: 'google', medium: null },
    })
    const p = foldPlayer(st, event)
    expect(p).toMatchObject({
      player_id: 'p9',
      first_seen_at: T0,
      install_day: D,
      last_active_at: T0,
      last_active_day: D,
      platform: 'android',
      country: 'FR',
      device_fingerprint: 'fp-9',
      campaign: 'summer',
      source: 'google',
      medium: null,
      event_count: 1,
      known: false,
    })
    expect(st.daily.get(D)?.new_players).toBe(1)
    expect(dimsOf(st)).toEqual([
      [0, 'platform', 'android', 1],
      [0, 'country', 'FR', 1],
      [0, 'affiliate', '', 1],
      [0, 'campaign', 'summer', 1],
      [0, 'source', 'google', 1],
      [0, 'medium', '', 1],
      [0, 'link', '', 1],
    ])
    expect(profileWrites(st).map((w) => w.write)).toEqual(['insert'])
  })

  it('a known player: first-touch fields fill only what is unknown (write all); activity alone writes activity', () => {
    const stored = profile({ country: 'DE', source: null })
    const st = state(snapshot({ profiles: new Map([['p1', stored]]) }))
    const p = foldPlayer(st, ev({ ts: T0, country: 'US', attribution: { ...noAttr, source: 'facebook' } }))
    expect([p.country, p.source, p.last_active_at, p.last_active_day, p.event_count]).toEqual([
      'DE',
      'facebook',
      T0,
      D,
      11,
    ])
    expect(st.daily.size).toBe(0)
    expect(profileWrites(st)[0]!.write).toBe('all')

    const quiet = state(snapshot({ profiles: new Map([['p1', stored]]) }))
    foldPlayer(quiet, ev({ ts: T0 - 2 * DAY }))
    expect(profileWrites(quiet).map((w) => [w.write, w.row.last_active_at, w.row.event_count])).toEqual([
      ['activity', T0 - DAY, 11],
    ])
    expect(Object.keys(profileWrites(quiet)[0]!.row)).not.toContain('known')
  })

  it("a source known only now: the player's days move from the (none) group of source and campaign to it", () => {
    const stored = profile()
    const st = state(
      snapshot({
        profiles: new Map([['p1', stored]]),
        typeDays: new Map([
          [
            'p1',
            [
              { day: D - 3, event_types: 1, custom_events: null },
              { day: D - 1, event_types: 1, custom_events: null },
            ],
          ],
        ]),
      }),
    )
    foldPlayer(
      st,
      ev({ ts: T0, attribution: { affiliate: null, campaign: 'spring', source: 'google', medium: null } }),
    )
    expect([...st.cohortDims.values()].map((c) => [c.dim, c.value, c.dayOffset, c.players])).toEqual([
      ['source', '', 0, -1],
      ['source', 'google', 0, 1],
      ['source', '', 2, -1],
      ['source', 'google', 2, 1],
      ['campaign', '', 0, -1],
      ['campaign', 'spring', 0, 1],
      ['campaign', '', 2, -1],
      ['campaign', 'spring', 2, 1],
    ])
    // A value already known never moves (first touch): another source changes nothing.
    const again = state(snapshot({ profiles: new Map([['p1', profile({ source: 'google' })]]) }))
    foldPlayer(
      again,
      ev({ ts: T0, attribution: { affiliate: null, campaign: null, source: 'tiktok', medium: null } }),
    )
    expect(again.cohortDims.size).toBe(0)
  })

  it('an event before the install day moves it back: new players, cohorts, conversion and batch days follow', () => {
    const stored = profile({ affiliate: 'aff-1', first_purchase_at: T0 - DAY })
    const st = state(
      snapshot({ profiles: new Map([['p1', stored]]), allDays: new Map([['p1', [D - 3, D - 1]]]) }),
    )
    st.days.set('p1\n' + (D - 1), {
      player_id: 'p1',
      day: D - 1,
      install_day: D - 3,
      events: 1,
      revenue_micros: 0,
      event_types: 1,
      custom_events: null,
      payingBefore: false,
      isNew: false,
    })
    const early = T0 - 4 * DAY - 5 * MIN
    const p = foldPlayer(st, ev({ ts: early }))
    expect([p.install_day, p.first_seen_at, p.dirty]).toEqual([D - 4, early, true])
    expect([st.daily.get(D - 3)?.new_players, st.daily.get(D - 4)?.new_players]).toEqual([-1, 1])
    expect([...st.cohorts.values()].map((c) => [c.installDay - D, c.dayOffset, c.players])).toEqual([
      [-3, 0, -1],
      [-4, 1, 1],
      [-3, 2, -1],
      [-4, 3, 1],
    ])
    expect([...st.acquisition.values()].map((a) => [a.day - D, a.dim, a.value, a.conversions])).toEqual([
      [-3, 'affiliate', 'aff-1', -1],
      [-3, 'campaign', '', -1],
      [-3, 'source', '', -1],
      [-3, 'medium', '', -1],
      [-3, 'link', '', -1],
      [-4, 'affiliate', 'aff-1', 1],
      [-4, 'campaign', '', 1],
      [-4, 'source', '', 1],
      [-4, 'medium', '', 1],
      [-4, 'link', '', 1],
    ])
    expect([...st.installMoves]).toEqual([['p1', D - 4]])
    expect(st.days.get('p1\n' + (D - 1))?.install_day).toBe(D - 4)
  })

  it("the country kind of the gaps: 'country:' while unknown", () => {
    expect([countryKind({ country: 'DE' }), countryKind({ country: null })]).toEqual([
      'country:DE',
      'country:',
    ])
  })

  it('a credited install: link and click first-touch, the event UTM over the link; a later credit counts the link install', () => {
    const credit = { clickId: 'clk_1', linkId: 'sml_1', source: 'tiktok', medium: 'cpc', campaign: 'launch' }
    const st = state()
    const p = foldPlayer(
      st,
      ev({ ts: T0, playerId: 'p9', credit, attribution: { ...noAttr, source: 'mail' } }),
    )
    expect([p.link_id, p.click_id, p.source, p.medium, p.campaign]).toEqual([
      'sml_1',
      'clk_1',
      'mail',
      'cpc',
      'launch',
    ])
    expect(dimsOf(st)).toContainEqual([0, 'link', 'sml_1', 1])
    // A known player without a link, already paying: credited now, its install and conversion move from no link to the link.
    const paid = profile({ install_day: D - 3, first_purchase_at: T0 - 2 * DAY })
    const later = state(snapshot({ profiles: new Map([['p1', paid]]) }))
    const q = foldPlayer(later, ev({ ts: T0, credit: { ...credit, linkId: 'sml_2' } }))
    expect(q.link_id).toBe('sml_2')
    expect(dimsOf(later)).toEqual([
      [-3, 'link', '', -1],
      [-3, 'link', 'sml_2', 1],
    ])
    expect([...later.acquisition.values()]).toEqual([
      { day: D - 3, dim: 'link', value: '', cost_micros: 0, commission_micros: 0, conversions: -1 },
      { day: D - 3, dim: 'link', value: 'sml_2', cost_micros: 0, commission_micros: 0, conversions: 1 },
    ])
    // A player with a link keeps it.
    const linked = state(
      snapshot({ profiles: new Map([['p1', profile({ link_id: 'sml_1', click_id: 'clk_1' })]]) }),
    )
    expect(foldPlayer(linked, ev({ ts: T0, credit: { ...credit, linkId: 'sml_3' } })).link_id).toBe('sml_1')
    expect(dimsOf(linked)).toEqual([])
  })
})

const noAttr = { affiliate: null, campaign: null, source: null, medium: null }
