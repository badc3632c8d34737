/**
 * The screen writer between Ink and the terminal: only changed lines are written, addressed by
 * row, in one synchronized update; a resize or Ctrl-L writes the whole frame; a shorter frame
 * erases what is left below it. Checked byte for byte, and on a small model of the terminal.
 */
import { EventEmitter } from 'node:events'
import { Text } from 'ink'
import { render } from 'ink'
import { useEffect, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { BEGIN_SYNC, END_SYNC, frameStdout, ScreenWriter } from '../../src/tui/screen-writer.js'
import { App } from '../../src/tui/app.js'
import { FakeClient } from './fake-client.js'
import { makeMember } from './fake-team.js'
import { ManualClock } from './manual-clock.js'

const CSI = `${String.fromCharCode(27)}\\[`
const WRITER_SEQUENCES = new RegExp(
  `(${CSI}\\?2026[hl]|${CSI}\\?7[hl]|${CSI}\\d+;1H|${CSI}2K|${CSI}H|${CSI}2J)`,
)
const ROW = new RegExp(`^${CSI}(\\d+);1H$`)
const SGR = new RegExp(`${CSI}[0-9;]*m`, 'g')

/**
 * A terminal that records what is written and keeps the screen the writes leave (rows of text).
 * Like a real one, it wraps text running past its last column onto the next row, unless autowrap
 * is off (DECAWM): then the text is clipped at the edge.
 */
class FakeTerminal extends EventEmitter {
  writes: string[] = []
  screen: string[] = []
  autowrap = true
  private row = 0
  constructor(
    public columns = 80,
    public rows = 24,
  ) {
    super()
  }
  write(data: string): boolean {
    this.writes.push(data)
    // The writer's own sequences; anything else (colour codes too) is a line's text.
    for (const part of data.split(WRITER_SEQUENCES)) {
      if (part === '' || part.startsWith('\x1b[?2026')) continue
      const at = ROW.exec(part)
      if (at) this.row = Number(at[1]) - 1
      else if (part === '\x1b[H') this.row = 0
      else if (part === '\x1b[2J') this.screen = []
      else if (part === '\x1b[2K') this.screen[this.row] = ''
      else if (part === '\x1b[?7l') this.autowrap = false
      else if (part === '\x1b[?7h') this.autowrap = true
      else this.put(part)
    }
    return true
  }
  /** Text at the cursor; what passes the last column wraps onto the next row, or is clipped. */
  private put(text: string): void {
    const line = (this.screen[this.row] ?? '') + text
    const chars = [...line.replace(SGR, '')]
    if (chars.length <= this.columns) {
      this.screen[this.row] = line
      return
    }
    this.screen[this.row] = chars.slice(0, this.columns).join('')
    if (!this.autowrap || this.row + 1 >= this.rows) return
    // The rest overwrites the start of the next row, as a terminal's autowrap does.
    const rest = chars.slice(this.columns).join('')
    const below = [...(this.screen[this.row + 1] ?? '')]
    this.row += 1
    this.screen[this.row] = ''
    this.put(rest + below.slice([...rest].length).join(''))
  }
  resize(columns: number, rows: number): void {
    this.columns = columns
    this.rows = rows
    this.emit('resize')
  }
  /** The screen as lines, without the empty rows at its end. */
  text(): string[] {
    const lines = Array.from({ length: this.screen.length }, (_, i) => this.screen[i] ?? '')
    while (lines.length > 0 && lines.at(-1) === '') lines.pop()
    return lines
  }
  last(): string {
    return this.writes.at(-1) ?? ''
  }
}

const at = (row: number) => `\x1b[${row + 1};1H\x1b[2K`

describe('screen writer', () => {
  it('writes the first frame whole, then only the line that changed, in one synchronized update', () => {
    const terminal = new FakeTerminal()
    const writer = new ScreenWriter(terminal)
    writer.frame('tabs\nlinks   30\nclicks  17\nstatus')
    expect(terminal.last()).toBe(
      `${BEGIN_SYNC}\x1b[?7l\x1b[H\x1b[2J${at(0)}tabs${at(1)}links   30${at(2)}clicks  17${at(3)}status${END_SYNC}`,
    )
    writer.frame('tabs\nlinks   30\nclicks  18\nstatus')
    expect(terminal.last()).toBe(`${BEGIN_SYNC}${at(2)}clicks  18${END_SYNC}`)
    expect(terminal.writes).toHaveLength(2)
    // The same frame again: nothing at all.
    writer.frame('tabs\nlinks   30\nclicks  18\nstatus')
    expect(terminal.writes).toHaveLength(2)
  })

  it('compares lines with their colour codes and wide characters: a colour change is a change', () => {
    const terminal = new FakeTerminal()
    const writer = new ScreenWriter(terminal)
    writer.frame('\x1b[32m● ok\x1b[39m\n漢字 ✓')
    writer.frame('\x1b[33m● ok\x1b[39m\n漢字 ✓')
    expect(terminal.last()).toBe(`${BEGIN_SYNC}${at(0)}\x1b[33m● ok\x1b[39m${END_SYNC}`)
    writer.frame('\x1b[33m● ok\x1b[39m\n漢字 ✗')
    expect(terminal.last()).toBe(`${BEGIN_SYNC}${at(1)}漢字 ✗${END_SYNC}`)
  })

  it('erases the lines a shorter frame leaves below it', () => {
    const terminal = new FakeTerminal()
    const writer = new ScreenWriter(terminal)
    writer.frame('a\nb\nc\nd')
    writer.frame('a\nb')
    expect(terminal.last()).toBe(`${BEGIN_SYNC}${at(2)}${at(3)}${END_SYNC}`)
    expect(terminal.text()).toEqual(['a', 'b'])
  })

  it('writes the whole frame after a resize, never below the last row, nothing once detached', () => {
    const terminal = new FakeTerminal(80, 3)
    const writer = new ScreenWriter(terminal)
    const { stdout, detach } = frameStdout(terminal as unknown as NodeJS.WriteStream, writer)
    stdout.write('one\ntwo\nthree\nfour')
    expect(terminal.text()).toEqual(['one', 'two', 'three'])
    const resized: number[] = []
    stdout.on('resize', () => resized.push(stdout.columns))
    terminal.resize(60, 4)
    expect(resized).toEqual([60])
    expect(stdout.rows).toBe(4)
    stdout.write('one\ntwo\nthree\nfour')
    expect(terminal.last()).toBe(
      `${BEGIN_SYNC}\x1b[?7l\x1b[H\x1b[2J${at(0)}one${at(1)}two${at(2)}three${at(3)}four${END_SYNC}`,
    )
    // Detached (the terminal is being restored): neither frames nor resizes get through.
    detach()
    const written = terminal.writes.length
    stdout.write('')
    stdout.write('a last frame on the way out')
    terminal.resize(80, 4)
    expect(resized).toEqual([60])
    expect(terminal.writes).toHaveLength(written)
  })

  it('a frame still laid out for the old width, after a resize to fewer columns, leaves nothing below it', () => {
    const terminal = new FakeTerminal(100, 5)
    const writer = new ScreenWriter(terminal)
    const { stdout } = frameStdout(terminal as unknown as NodeJS.WriteStream, writer)
    const wide = `Ana  admin  ${'x'.repeat(70)} mem_fhlrql0693d0wsbftnc7`
    stdout.write(`tabs\n${wide}\n\nPending invitations`)
    terminal.resize(80, 5)
    // Ink renders once more at the old width before the app lays out for 80 columns.
    stdout.write(`tabs\n${wide}\n\nPending invitations`)
    const narrow = `Ana  admin  ${'x'.repeat(41)}… mem_fhlrql0693d0wsbftnc7`
    stdout.write(`tabs\n${narrow}\n\nPending invitations`)
    expect(terminal.text()).toEqual(['tabs', narrow, '', 'Pending invitations'])
  })

  it('redraw writes the last frame whole (Ctrl-L), over whatever else wrote on the screen', () => {
    const terminal = new FakeTerminal()
    const writer = new ScreenWriter(terminal)
    writer.frame('a\nb')
    terminal.write('\x1b[1;1Hnoise from elsewhere')
    writer.redraw()
    expect(terminal.text()).toEqual(['a', 'b'])
  })
})

/** A terminal's keyboard for Ink (raw mode, nothing typed): the TUI reads keys. */
function keyboard(): NodeJS.ReadStream {
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    setEncoding: () => stdin,
    setRawMode: () => stdin,
    resume: () => stdin,
    pause: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
    read: () => null,
  })
  return stdin as unknown as NodeJS.ReadStream
}

describe('Ink through the screen writer', () => {
  let unmount: (() => void) | undefined
  afterEach(() => unmount?.())

  it('a changing figure rewrites its own line only; the screen always equals a fresh render', async () => {
    let set: (n: number) => void = () => {}
    function Figures() {
      const [n, setN] = useState(0)
      useEffect(() => void (set = setN), [])
      return (
        <>
          <Text>Totals</Text>
          <Text>{`clicks today  ${n}`}</Text>
          {n % 2 === 0 ? <Text>even days get a third line</Text> : null}
          <Text color="green">status</Text>
        </>
      )
    }
    const terminal = new FakeTerminal(40, 10)
    const writer = new ScreenWriter(terminal)
    const { stdout, detach } = frameStdout(terminal as unknown as NodeJS.WriteStream, writer)
    const app = render(<Figures />, { stdout, debug: true, patchConsole: false })
    unmount = () => {
      app.unmount()
      detach()
    }
    const settle = () => new Promise((r) => setTimeout(r, 20))
    await settle()
    expect(terminal.text()).toEqual(['Totals', 'clicks today  0', 'even days get a third line', 'status'])
    const before = terminal.writes.length
    set(2)
    await settle()
    const update = terminal.writes.slice(before).join('')
    expect(update).toBe(`${BEGIN_SYNC}${at(1)}clicks today  2${END_SYNC}`)
    for (const n of [3, 4, 7]) {
      set(n)
      await settle()
    }
    const seen = terminal.text()
    writer.redraw()
    expect(seen).toEqual(terminal.text())
    expect(seen).toEqual(['Totals', 'clicks today  7', 'status'])
  })

  it('the TUI resized from 100 to 80 columns: the screen equals a fresh render, no fragment of the wide one', async () => {
    const client = new FakeClient()
    client.teamData.members.push(
      makeMember(
        'mem_fhlrql0693d0wsbftnc7',
        'Alexandra Konstantinopoulou-Smythe',
        'admin',
        'someone.with.a.long.address@marketing.example.com',
      ),
    )
    const terminal = new FakeTerminal(100, 24)
    const writer = new ScreenWriter(terminal)
    const { stdout, detach } = frameStdout(terminal as unknown as NodeJS.WriteStream, writer)
    const app = render(
      <App
        client={client}
        clock={new ManualClock()}
        refreshSeconds={5}
        color={false}
        scopes={null}
        initialScreen="team"
      />,
      { stdout, stdin: keyboard(), debug: true, patchConsole: false, exitOnCtrlC: false },
    )
    unmount = () => {
      app.unmount()
      detach()
    }
    const screen = () => terminal.text().join('\n')
    const until = async (ok: () => boolean, what: string) => {
      for (let i = 0; !ok(); i++) {
        if (i > 400) throw new Error(`no ${what}; the screen:\n${screen()}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    await until(() => screen().includes('mem_fhlrql0693d0wsbftnc7') && screen().includes('inv_1'), 'team')
    terminal.resize(80, 24)
    // The frame laid out for 80 columns: the id whole again, after Ink's render at the old width
    // (until then the old frame is on the screen, with the ids too: wait for its width to go).
    const narrow = () => Math.max(...terminal.text().map((line) => [...line].length)) <= 80
    await until(
      () => narrow() && screen().includes('mem_fhlrql0693d0wsbftnc7') && screen().includes('inv_1'),
      'frame for 80',
    )
    const seen = terminal.text()
    writer.redraw()
    expect(seen).toEqual(terminal.text())
    expect(Math.max(...seen.map((line) => [...line].length))).toBeLessThanOrEqual(80)
  })
})
