/**
 * What a drop or a file picker gives, as the text files to upload: folders walked (drag and drop of a
 * whole folder, or a folder picker), a single top folder taken off the paths, and everything that
 * cannot go in skipped with its reason (hidden files, binary or non-UTF-8 content, too large).
 */
export interface Candidate {
  readonly path: string
  readonly file: File
}

export interface Prepared {
  readonly path: string
  readonly content: string
  readonly size: number
}

export interface Skipped {
  readonly path: string
  readonly reason: string
}

/** The service's per-file limit (SERVICE_MAX_FILE_BYTES default): larger files are skipped here, not sent. */
export const MAX_FILE_BYTES = 1024 * 1024

const IGNORED_SEGMENTS = new Set([".git", "node_modules", ".DS_Store", "__pycache__", ".venv", ".idea", ".vscode"])

/** Reasons a path is never uploaded (hidden or tool folders). */
export const ignoredReason = (path: string): string | null => {
  const segments = path.split("/")
  if (segments.some((s) => IGNORED_SEGMENTS.has(s))) return "a tool or version-control folder"
  if (segments.some((s) => s.startsWith("."))) return "a hidden file"
  return null
}

const readEntries = (reader: FileSystemDirectoryReader) =>
  new Promise<Array<FileSystemEntry>>((resolve, reject) => reader.readEntries(resolve, reject))

const walk = async (entry: FileSystemEntry, prefix: string, out: Array<Candidate>): Promise<void> => {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
    out.push({ path, file })
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader()
    // readEntries answers in batches until an empty one
    for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
      for (const child of batch) await walk(child, path, out)
    }
  }
}

/** The files of a drop: folders walked when the browser exposes entries, else the plain file list. */
export const candidatesFromDrop = async (transfer: DataTransfer): Promise<Array<Candidate>> => {
  const entries = [...transfer.items].map((item) => (item.kind === "file" ? item.webkitGetAsEntry?.() ?? null : null))
  if (entries.length > 0 && entries.every((e) => e !== null)) {
    const out: Array<Candidate> = []
    for (const entry of entries) await walk(entry!, "", out)
    return out
  }
  return [...transfer.files].map((file) => ({ path: file.name, file }))
}

/** The files of an <input type=file> (with `webkitdirectory`, their paths inside the chosen folder). */
export const candidatesFromInput = (files: FileList | null): Array<Candidate> =>
  [...(files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }))

/** Takes a single top folder off every path ("my-skill/SKILL.md" → "SKILL.md"); answers the folder's name. */
export const stripCommonFolder = (candidates: ReadonlyArray<Candidate>): { candidates: Array<Candidate>; folder: string | null } => {
  const tops = new Set(candidates.map((c) => (c.path.includes("/") ? c.path.split("/")[0] : null)))
  if (candidates.length === 0 || tops.size !== 1 || tops.has(null)) return { candidates: [...candidates], folder: null }
  const folder = [...tops][0]!
  return { candidates: candidates.map((c) => ({ ...c, path: c.path.slice(folder.length + 1) })), folder }
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Reads each candidate as UTF-8 text, or says why it is skipped. */
export const prepare = async (candidates: ReadonlyArray<Candidate>): Promise<{ files: Array<Prepared>; skipped: Array<Skipped> }> => {
  const files: Array<Prepared> = []
  const skipped: Array<Skipped> = []
  for (const { path, file } of candidates) {
    const ignored = ignoredReason(path)
    if (ignored) {
      skipped.push({ path, reason: ignored })
      continue
    }
    if (file.size > MAX_FILE_BYTES) {
      skipped.push({ path, reason: `larger than 1 MiB (${Math.round(file.size / 1024)} KiB)` })
      continue
    }
    const bytes = new Uint8Array(await file.arrayBuffer())
    if (bytes.includes(0)) {
      skipped.push({ path, reason: "not a text file (binary content)" })
      continue
    }
    try {
      files.push({ path, content: utf8.decode(bytes), size: bytes.length })
    } catch {
      skipped.push({ path, reason: "not UTF-8 text" })
    }
  }
  return { files, skipped }
}

/** `sha256:<hex>` of the text's UTF-8 bytes, as the service writes contentHash. */
export const sha256 = async (text: string) => {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))
  return `sha256:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`
}

/** Upload requests of at most `maxFiles` files and about `maxBytes` of content each. */
export const batches = <T extends { readonly size: number }>(items: ReadonlyArray<T>, maxFiles = 100, maxBytes = 8 * 1024 * 1024) => {
  const out: Array<Array<T>> = []
  let current: Array<T> = []
  let bytes = 0
  for (const item of items) {
    if (current.length > 0 && (current.length >= maxFiles || bytes + item.size > maxBytes)) {
      out.push(current)
      current = []
      bytes = 0
    }
    current.push(item)
    bytes += item.size
  }
  if (current.length > 0) out.push(current)
  return out
}
