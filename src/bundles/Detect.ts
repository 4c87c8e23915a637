/**
 * Pure rules about file paths and contents: validation (the contract's path and content rules), the
 * detected language and media type, the per-file artifactType, and the primary-file precedence.
 * docs/bundles.md describes each rule for users.
 */
import * as Crypto from "node:crypto"
import { sha256Tag } from "../domain/ContentHash.js"

export const MAX_PATH_CHARS = 512

// C0 controls, DEL and C1 controls
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The first problem with a path, or undefined when it is a valid relative POSIX path. */
export const pathProblem = (path: string): string | undefined => {
  if (path.length === 0) return "must not be empty"
  if ([...path].length > MAX_PATH_CHARS) return `must be at most ${MAX_PATH_CHARS} characters`
  if (LONE_SURROGATE.test(path)) return "must be valid Unicode text"
  if (CONTROL.test(path)) return "must not contain control characters"
  if (path.includes("\\")) return "must not contain a backslash (use / as the separator)"
  if (path.startsWith("/")) return "must be relative (no leading /)"
  for (const segment of path.split("/")) {
    if (segment === "") return "must not contain an empty segment (// or a trailing /)"
    if (segment === "." || segment === "..") return "must not contain a '.' or '..' segment"
  }
  return undefined
}

/** The first problem with a file's content, or undefined when it is acceptable UTF-8 text. */
export const contentProblem = (content: string, maxBytes: number): string | undefined => {
  if (content.includes("\u0000")) return "must be text: it contains a NUL byte"
  if (LONE_SURROGATE.test(content)) return "must be valid UTF-8 text (it contains an unpaired surrogate)"
  const size = Buffer.byteLength(content, "utf8")
  if (size > maxBytes) return `is ${size} bytes; the limit is ${maxBytes} bytes per file`
  return undefined
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;\s*[a-z0-9_-]+=[^;\s]{1,64}){0,3}$/i

export const mediaTypeProblem = (mediaType: string): string | undefined =>
  MEDIA_TYPE.test(mediaType) ? undefined : "must be a media type such as text/markdown"

export interface Digest {
  readonly contentHash: string
  readonly sizeBytes: number
}

/** `sha256:<hex>` of the exact UTF-8 bytes, and their count. */
export const digest = (content: string): Digest => {
  const bytes = Buffer.from(content, "utf8")
  return {
    contentHash: sha256Tag(bytes),
    sizeBytes: bytes.length
  }
}

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1)
const extension = (path: string) => {
  const name = basename(path)
  const dot = name.lastIndexOf(".")
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ""
}
const depth = (path: string) => path.split("/").length - 1

const languages: Record<string, string> = {
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  yaml: "yaml",
  yml: "yaml",
  json: "json",
  jsonl: "json",
  toml: "toml",
  py: "python",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  rb: "ruby",
  go: "go",
  rs: "rust",
  java: "java",
  sql: "sql",
  html: "html",
  htm: "html",
  css: "css",
  xml: "xml",
  csv: "csv",
  txt: "text",
  rubr_flow: "rubr_flow"
}

const mediaTypes: Record<string, string> = {
  markdown: "text/markdown",
  yaml: "application/yaml",
  json: "application/json",
  toml: "application/toml",
  python: "text/x-python",
  typescript: "text/typescript",
  javascript: "text/javascript",
  shell: "text/x-shellscript",
  html: "text/html",
  css: "text/css",
  xml: "application/xml",
  csv: "text/csv",
  sql: "application/sql",
  rubr_flow: "text/x-rubr-flow"
}

/** By extension; `text` when unknown. */
export const detectLanguage = (path: string): string => languages[extension(path)] ?? "text"

/** The client's media type when given, else one derived from the detected language. */
export const mediaTypeFor = (language: string): string => mediaTypes[language] ?? "text/plain"

export const isRubrFlow = (path: string) => {
  const name = basename(path).toLowerCase()
  return extension(path) === "rubr_flow" || name === "rubr_flow.md" || name === "rubr_flow.yaml" ||
    name === "rubr_flow.yml" || name === "rubr_flow.json" || name.endsWith(".rubr_flow.md")
}

export type ArtifactType = "skill" | "agent" | "prompt" | "command" | "workflow" | "rubr_flow"

/**
 * The artifactType of one file, from its own path:
 * rubr_flow files; SKILL.md (skill); AGENTS.md, CLAUDE.md or anything under agents/ (agent);
 * anything under commands/ (command); workflow.md, *.workflow.md or anything under workflows/
 * (workflow); everything else is a prompt (prompt.md, system.md, instructions.md, README.md, references).
 * A file inside a folder that holds a SKILL.md of the same upload is part of that skill: see `inferTypes`.
 */
export const artifactTypeOf = (path: string): ArtifactType => {
  const lower = path.toLowerCase()
  const name = basename(lower)
  const folders = lower.split("/").slice(0, -1)
  if (isRubrFlow(path)) return "rubr_flow"
  if (name === "skill.md") return "skill"
  if (name === "agents.md" || name === "claude.md" || folders.includes("agents")) return "agent"
  if (folders.includes("commands")) return "command"
  if (name === "workflow.md" || name.endsWith(".workflow.md") || folders.includes("workflows")) return "workflow"
  return "prompt"
}

/**
 * The artifactType of each path, given every active path of the bundle: a file with no signal of its own
 * that sits under a folder holding a SKILL.md (or at any depth below the bundle root when the root holds
 * SKILL.md) belongs to that skill.
 */
export const inferType = (path: string, skillFolders: ReadonlyArray<string>): ArtifactType => {
  const own = artifactTypeOf(path)
  if (own !== "prompt") return own
  const name = basename(path).toLowerCase()
  if (name === "prompt.md" || name === "system.md" || name === "instructions.md") return own
  return skillFolders.some((folder) => folder === "" || path.startsWith(folder + "/")) ? "skill" : own
}

export const skillFoldersOf = (paths: Iterable<string>): Array<string> => {
  const out: Array<string> = []
  for (const p of paths) {
    if (basename(p) === "SKILL.md" || basename(p).toLowerCase() === "skill.md") out.push(p.slice(0, Math.max(0, p.lastIndexOf("/"))))
  }
  return out
}

/** High-confidence names, strongest first. README.md is a fallback tier of its own. */
const STRONG_NAMES = ["skill.md", "agents.md", "prompt.md", "system.md", "instructions.md", "workflow.md"]

const strongRank = (path: string): number | undefined => {
  const name = basename(path).toLowerCase()
  const index = STRONG_NAMES.indexOf(name)
  if (index >= 0) return index
  if (isRubrFlow(path)) return STRONG_NAMES.length
  return undefined
}

/**
 * The primary file among the active files, or undefined when there is no confident choice.
 *  1. Strong names (SKILL.md, AGENTS.md, prompt.md, system.md, instructions.md, workflow.md, then
 *     rubr_flow files): the shallowest wins; at equal depth, the earlier name in that list.
 *  2. Only when there is no strong name: README.md, the shallowest.
 *  3. A tie (two files with the same rank at the same depth, e.g. a/SKILL.md and b/SKILL.md) is not
 *     confident: no primary.
 * Names match case-insensitively.
 */
export const choosePrimary = <F extends { readonly id: string; readonly path: string }>(
  files: ReadonlyArray<F>
): F | undefined => {
  const pick = (candidates: ReadonlyArray<{ file: F; rank: number }>) => {
    if (candidates.length === 0) return undefined
    const sorted = [...candidates].sort((a, b) => depth(a.file.path) - depth(b.file.path) || a.rank - b.rank)
    const best = sorted[0]
    const second = sorted[1]
    if (second && depth(second.file.path) === depth(best.file.path) && second.rank === best.rank) return undefined
    return best.file
  }
  const strong = files.flatMap((file) => {
    const rank = strongRank(file.path)
    return rank === undefined ? [] : [{ file, rank }]
  })
  if (strong.length > 0) return pick(strong)
  return pick(files.filter((f) => basename(f.path).toLowerCase() === "readme.md").map((file) => ({ file, rank: 0 })))
}
