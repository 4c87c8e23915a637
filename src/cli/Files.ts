/** Reading the local side: folders walked for text files, and rubr_flow files named on the command line. */
import * as Fs from "node:fs"
import * as Path from "node:path"

/** Folders never walked: version control, dependencies, caches. */
const SKIPPED_DIRS = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__", ".DS_Store"])

export const toPosix = (p: string) => p.split(Path.sep).join("/")

/** Every file under `dir` (relative, `/`-separated, sorted), skipping hidden folders and the ones above. */
export const walk = (dir: string): Array<string> => {
  const out: Array<string> = []
  const visit = (rel: string) => {
    for (const entry of Fs.readdirSync(Path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) visit(child)
      } else if (entry.isFile() && !entry.name.startsWith(".")) {
        out.push(child)
      }
    }
  }
  visit("")
  return out.sort()
}

const decoder = new TextDecoder("utf-8", { fatal: true })

/** The file's text, or null when it is not text (NUL bytes or invalid UTF-8). */
export const readText = (file: string): string | null => {
  const bytes = Fs.readFileSync(file)
  if (bytes.includes(0)) return null
  try {
    // a UTF-8 byte order mark is not content
    return decoder.decode(bytes).replace(/^\uFEFF/, "")
  } catch {
    return null
  }
}

/** Files named on the command line; a folder stands for the `*.rubr_flow` files under it. Missing ones are listed apart. */
export const expandFlowFiles = (args: ReadonlyArray<string>) => {
  const files: Array<string> = []
  const missing: Array<string> = []
  for (const arg of args) {
    const stat = Fs.statSync(arg, { throwIfNoEntry: false })
    if (!stat) missing.push(arg)
    else if (stat.isDirectory()) files.push(...walk(arg).filter((f) => f.endsWith(".rubr_flow")).map((f) => toPosix(Path.join(arg, f))))
    else files.push(arg)
  }
  return { files, missing }
}
