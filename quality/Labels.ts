/**
 * Precision labels: every finding at minor or above that the mock reviewer makes on a clean skill,
 * judged correct or incorrect by a person who read the text it names, with a one-line reason.
 *
 * A label is keyed by the finding's fingerprint: the rule id, the skill's folder and file, and the
 * text of the line the finding points at (whitespace collapsed, at most 120 characters), never the
 * line number, so an edit elsewhere in the file keeps every key. Two findings of one rule on lines
 * with the same text are told apart by ` #2`, ` #3` in document order.
 *
 * The labels live in quality/labels/*.json, one file per corpus (`skills.json`, `skills-extra.json`,
 * `samples.json`): `{ "<fingerprint>": { "label": "correct" | "incorrect", "reason": "..." } }`. A
 * fixture (a checked-in copy of a corpus skill) shares its corpus' labels: the key has no corpus in it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Finding, Severity } from "../src/review/Types.js"

export const LABELS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "labels")

export type Verdict = "correct" | "incorrect"

export interface Label {
  readonly label: Verdict
  readonly reason: string
}

export type Labels = ReadonlyMap<string, Label>

/** The severities that are judged: an info note is a remark, not a claim that something is wrong. */
export const JUDGED: ReadonlySet<Severity> = new Set(["critical", "major", "minor"])

const excerpt = (content: string, line: number): string => {
  const text = (content.split(/\r?\n/)[line - 1] ?? "").trim().replace(/\s+/g, " ")
  return text.length > 120 ? text.slice(0, 120) : text
}

export interface Fingerprinted {
  readonly key: string
  readonly finding: Finding
}

/**
 * The fingerprints of a review's judged findings, in the review's order. `contentOf` gives a file's
 * text by its bundle path (the line a finding points at is read from it).
 */
export const fingerprints = (
  folder: string,
  findings: ReadonlyArray<Finding>,
  contentOf: (path: string) => string | undefined
): Array<Fingerprinted> => {
  const seen = new Map<string, number>()
  const judged = findings
    .filter((f) => JUDGED.has(f.severity))
    .map((f, i) => ({ f, i }))
    // document order within a file, so `#2` does not depend on the severity sort
    .sort((a, b) => (a.f.filePath < b.f.filePath ? -1 : a.f.filePath > b.f.filePath ? 1 : a.f.lineStart - b.f.lineStart || a.i - b.i))
  const keyed = judged.map(({ f, i }) => {
    const base = `${f.ruleId} ${folder}/${f.filePath} ${excerpt(contentOf(f.filePath) ?? "", f.lineStart)}`.trimEnd()
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    return { i, key: n === 1 ? base : `${base} #${n}`, finding: f }
  })
  return keyed.sort((a, b) => a.i - b.i).map(({ key, finding }) => ({ key, finding }))
}

const isLabel = (v: unknown): v is Label =>
  typeof v === "object" && v !== null &&
  ((v as Label).label === "correct" || (v as Label).label === "incorrect") &&
  typeof (v as Label).reason === "string" && (v as Label).reason.trim() !== ""

/** Every label file of quality/labels (or `dir`), merged; a malformed entry is an error, not skipped. */
export const loadLabels = (dir: string = LABELS_DIR): Map<string, Label> => {
  const out = new Map<string, Label>()
  if (!fs.existsSync(dir)) return out
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
    const parsed = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as Record<string, unknown>
    for (const [key, value] of Object.entries(parsed)) {
      if (!isLabel(value)) throw new Error(`${name}: the label of ${JSON.stringify(key)} needs "label": "correct" | "incorrect" and a "reason"`)
      if (out.has(key)) throw new Error(`${name}: ${JSON.stringify(key)} is labelled twice`)
      out.set(key, value)
    }
  }
  return out
}

/** The label file a skill's findings belong in: its corpus', or samples.json. */
export const labelFileFor = (source: string): string => (source === "sample" ? "samples.json" : source === "fixture" ? "skills-extra.json" : `${source}.json`)
