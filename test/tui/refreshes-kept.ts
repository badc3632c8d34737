/**
 * Run as its own process by command.test.ts (React picks its build when it first loads): prepares
 * the process as `linkctl tui` does, then renders a text that changes every 20 ms, 20 times, as a
 * screen's refreshes do, and prints what the process's performance timeline holds afterwards.
 */
import { prepareProcessForTui } from '../../src/tui/run.js'

prepareProcessForTui()
const { Text } = await import('ink')
const { render } = await import('ink-testing-library')
const { createElement, useEffect, useState } = await import('react')

function Ticking({ times }: { times: number }) {
  const [tick, setTick] = useState(0)
  useEffect(() => {
    if (tick >= times) return
    const timer = setTimeout(() => setTick((t) => t + 1), 20)
    return () => clearTimeout(timer)
  }, [tick, times])
  return createElement(Text, null, `refresh ${tick}`)
}

const app = render(createElement(Ticking, { times: 20 }))
while (!app.lastFrame()?.includes('refresh 20')) await new Promise((r) => setTimeout(r, 20))
app.unmount()
process.stdout.write(JSON.stringify({ kept: performance.getEntries().length, frames: app.frames.length }))
