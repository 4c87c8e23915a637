/**
 * Where the CLI writes: results on stdout (one document for json, junit and sarif), everything else
 * on stderr. Progress is one live line on a terminal and plain lines otherwise; colours only on a
 * terminal, never with NO_COLOR.
 */
import type { Settings } from "./Settings.js"

export interface Colors {
  readonly red: (s: string) => string
  readonly green: (s: string) => string
  readonly yellow: (s: string) => string
  readonly cyan: (s: string) => string
  readonly dim: (s: string) => string
  readonly bold: (s: string) => string
}

const paint = (on: boolean, open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s)

export const colors = (on: boolean): Colors => ({
  red: paint(on, 31, 39),
  green: paint(on, 32, 39),
  yellow: paint(on, 33, 39),
  cyan: paint(on, 36, 39),
  dim: paint(on, 2, 22),
  bold: paint(on, 1, 22)
})

export interface Output {
  readonly colors: Colors
  /** the result, on stdout */
  readonly result: (text: string) => void
  /** a line for people, on stderr */
  readonly note: (line: string) => void
  /** progress: replaces the live line on a terminal; a plain line otherwise (repeats are dropped) */
  readonly progress: (line: string) => void
  /** ends the live line (a terminal keeps its last state) */
  readonly endProgress: () => void
}

export const makeOutput = (settings: Pick<Settings, "color" | "interactive">, streams = { stdout: process.stdout, stderr: process.stderr }): Output => {
  let live = false
  let last = ""
  const clear = () => {
    if (live) {
      streams.stderr.write("\r\x1b[2K")
      live = false
    }
  }
  // a terminal that does not say its size (0) is taken as 100 columns
  const width = () => Math.max(20, ((streams.stderr as { columns?: number }).columns || 100) - 1)
  return {
    colors: colors(settings.color),
    result: (text) => {
      clear()
      streams.stdout.write(text.endsWith("\n") ? text : `${text}\n`)
    },
    note: (line) => {
      clear()
      streams.stderr.write(`${line}\n`)
    },
    progress: (line) => {
      if (line === last) return
      last = line
      if (settings.interactive) {
        const shown = line.length > width() ? `${line.slice(0, width() - 1)}…` : line
        streams.stderr.write(`\r\x1b[2K${shown}`)
        live = true
      } else {
        streams.stderr.write(`${line}\n`)
      }
    },
    endProgress: () => {
      if (live) streams.stderr.write("\n")
      live = false
      last = ""
    }
  }
}
