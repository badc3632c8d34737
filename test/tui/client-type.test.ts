/** The TUI's client is the typed client's own calls (checked by tsc; expectTypeOf is a no-op at run time). */
import { describe, expectTypeOf, it } from 'vitest'
import type { LinkdClient } from '../../src/client/index.js'
import type { TuiClient } from '../../src/tui/api.js'

type Namespaces = Exclude<keyof TuiClient, 'health' | 'ready' | 'discovery'>
/** Each namespace of TuiClient, as LinkdClient declares the same calls. */
type Picked = { [N in Namespaces]: Pick<LinkdClient[N], keyof TuiClient[N]> }

describe('TuiClient', () => {
  it('has the signatures of LinkdClient for every call it names', () => {
    expectTypeOf<Pick<TuiClient, Namespaces>>().toEqualTypeOf<Picked>()
    expectTypeOf<TuiClient['health']>().toEqualTypeOf<LinkdClient['health']>()
    expectTypeOf<TuiClient['ready']>().toEqualTypeOf<LinkdClient['ready']>()
    expectTypeOf<TuiClient['discovery']>().toEqualTypeOf<LinkdClient['discovery']>()
    expectTypeOf<LinkdClient>().toExtend<TuiClient>()
  })
})
