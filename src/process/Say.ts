/** The process's plain lines: human-readable, on stderr, before (and besides) the structured log on stdout. */
export const say = (line: string) => {
  process.stderr.write(`rubr: ${line}\n`)
}
