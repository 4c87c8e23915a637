/**
 * The validator and the YAML readers give exactly what they gave when `golden/expected.json` was
 * written: for every text in `golden/cases.json` (the texts the rubr-flow and conversion tests
 * validate, the mock converter's outputs among them), a few stress texts, and seeded edits of each,
 * the same issues (code, severity, line, path, order), and a digest of everything else: the messages,
 * the decoded flow, and both readers' values, problems and offsets for every path.
 *
 * A change to any rule shows up here. When the change is meant (and `VALIDATOR_VERSION` bumped), write
 * the file again with `GOLDEN_UPDATE=1 npx vitest run test/rubr-flow/golden.test.ts` and review its diff.
 * The edits depend only on the case's name and text: changing `edit` also means writing the file again.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import {
  type Anchor,
  fastParse,
  MAX_ALIAS_NODES,
  MAX_TEXT_LENGTH,
  parseFlowText,
  type PathSegment,
  readWithLibrary
} from "../../src/rubr_flow/Parse.js"
import { type ValidateOptions, validateText, VALIDATOR_VERSION } from "../../src/rubr_flow/Validator.js"

interface Case {
  readonly name: string
  readonly text: string
  readonly options?: ValidateOptions
}

interface Outcome {
  readonly name: string
  /** which reader read the text: the fast path, or the yaml library */
  readonly reader: "fast" | "library"
  readonly valid: boolean
  readonly formatVersion: string | null
  /** [line, path, severity, code], in the order reported */
  readonly issues: ReadonlyArray<readonly [number, string, string, string]>
  /** sha256 of the full result (messages, flow) and of both readers' output (values, problems, offsets) */
  readonly digest: string
}

const CASES_FILE = new URL("golden/cases.json", import.meta.url)
const EXPECTED_FILE = new URL("golden/expected.json", import.meta.url)
const GUIDE_FILE = new URL("../../docs/rubr-flow.md", import.meta.url)

/** Texts at the limits, written here rather than stored. */
const stressCases = (): Array<Case> => [
  { name: "stress-too-large", text: `rubr_flow: "1.0"\nname: ${"x".repeat(MAX_TEXT_LENGTH)}\n` },
  { name: "stress-brackets", text: "[".repeat(5000) + "]".repeat(5000) },
  { name: "stress-indentation", text: Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}a:`).join("\n") },
  {
    name: "stress-aliases",
    text: `rubr_flow: "1.0"\na: &a [x, x, x, x, x, x, x, x, x, x]\n${
      Array.from({ length: 6 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`).join("\n")
    }\n`
  },
  { name: "stress-alias-budget", text: `rubr_flow: "1.0"\nx: &x [${Array(MAX_ALIAS_NODES / 100).fill("1").join(", ")}]\ny: [${Array(101).fill("*x").join(", ")}]\n` }
]

/** A stream of numbers in [0, 1) that depends only on `seed`. */
const draws = (seed: string) => {
  let n = 0
  return (): number => createHash("sha256").update(`${seed}:${n++}`).digest().readUInt32BE(0) / 2 ** 32
}

const KEYS = ["id", "title", "action", "check", "uses", "produces", "from", "must", "never", "when", "then", "resume_at", "lines", "path", "steps", "outputs"]
const VALUES = ["", "~", "1.0", "2", "-1", "true", "[a, b]", "{}", "x.md:3-1", "SKILL.md:999", "\"{{nope}}\"", "|", "Same as the action.", "Never push to main."]

/** A few edits that break a flow the way people and models do: a renamed id, a lost line, a flipped rule. */
const edit = (seed: string, text: string): string => {
  const draw = draws(seed)
  const index = (n: number): number => Math.floor(draw() * n)
  const lines = text.split("\n")
  const edits = 1 + index(3)
  for (let e = 0; e < edits; e++) {
    const i = index(lines.length)
    const line = lines[i] ?? ""
    const keyed = /^(\s*(?:- )?)([a-z_]+):( ?)(.*)$/.exec(line)
    switch (index(10)) {
      case 0:
        lines.splice(i, 1)
        break
      case 1:
        lines.splice(index(lines.length), 0, line)
        break
      case 2: {
        // another line's value under this line's key
        const other = /^\s*(?:- )?[a-z_]+: ?(.*)$/.exec(lines[index(lines.length)] ?? "")
        if (keyed !== null && other !== null) lines[i] = `${keyed[1]}${keyed[2]}: ${other[1]}`
        break
      }
      case 3:
        if (keyed !== null) lines[i] = `${keyed[1]}${KEYS[index(KEYS.length)]}:${keyed[3]}${keyed[4]}`
        break
      case 4:
        if (keyed !== null) lines[i] = `${keyed[1]}${keyed[2]}: ${VALUES[index(VALUES.length)]}`
        break
      case 5:
        lines[i] = line.replace(/\b(must|never)\b/, (w) => (w === "must" ? "never" : "must"))
        break
      case 6: {
        // a typo in the value
        const at = index(line.length)
        lines[i] = line.slice(0, at) + line.slice(at + 1)
        break
      }
      case 7:
        lines[i] = index(2) === 0 ? ` ${line}` : line.replace(/^ {1,2}/, "")
        break
      case 8: {
        const j = Math.min(lines.length - 1, i + 1)
        lines[i] = lines[j]
        lines[j] = line
        break
      }
      default:
        lines[i] = `${line}${["\t", " #", ": x", "'", " *a", " &a", "\r"][index(7)]}`
    }
  }
  return lines.join("\n")
}

const allCases = (): Array<Case> => {
  const stored = (JSON.parse(readFileSync(CASES_FILE, "utf8")) as { cases: Array<Case> }).cases
  const edited = stored
    .filter((c) => c.text.split("\n").length >= 8)
    .flatMap((c) => Array.from({ length: 4 }, (_, k) => ({ ...c, name: `${c.name}~${k + 1}`, text: edit(`${c.name}~${k + 1}`, c.text) })))
  return [...stored, ...stressCases(), ...edited]
}

/** JSON that keeps what JSON drops: undefined, NaN, infinities, -0. */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v === undefined
      ? "<undefined>"
      : typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0))
      ? `<number ${Object.is(v, -0) ? "-0" : String(v)}>`
      : v)

const pathsOf = (value: unknown, prefix: Array<PathSegment> = [], acc: Array<Array<PathSegment>> = []): Array<Array<PathSegment>> => {
  acc.push(prefix)
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], acc))
  else if (value !== null && typeof value === "object") for (const k of Object.keys(value)) pathsOf((value as Record<string, unknown>)[k], [...prefix, k], acc)
  return acc
}

interface Reading {
  readonly value: unknown
  readonly versionText: string | null
  readonly problems: ReadonlyArray<{ readonly code: string; readonly offset: number; readonly path: ReadonlyArray<PathSegment>; readonly message: string }>
  readonly fatal?: boolean
  readonly offsetOf: (path: ReadonlyArray<PathSegment>, anchor: Anchor) => number
}

/** A reader's output, with the offset of every path in the value, its container, and a key that is not there. */
const readingFacts = (r: Reading | undefined) =>
  r === undefined ? null : {
    value: r.value,
    versionText: r.versionText,
    // what a problem says and where; how serious it is shows in the validator's result
    problems: r.problems.map((p) => [p.code, p.offset, p.path, p.message]),
    fatal: r.fatal ?? null,
    offsets: pathsOf(r.value).map((p) => [r.offsetOf(p, "node"), r.offsetOf(p, "container"), r.offsetOf([...p, "absent", 0], "node")])
  }

const outcomeOf = (c: Case): Outcome => {
  const result = validateText(c.text, c.options)
  const fast = fastParse(c.text)
  const facts = {
    result,
    parsed: readingFacts(parseFlowText(c.text)),
    fast: readingFacts(fast),
    library: readingFacts(readWithLibrary(c.text))
  }
  return {
    name: c.name,
    reader: fast === undefined ? "library" : "fast",
    valid: result.valid,
    formatVersion: result.formatVersion,
    issues: result.issues.map((i) => [i.line, i.path, i.severity, i.code] as const),
    digest: createHash("sha256").update(stable(facts)).digest("hex").slice(0, 24)
  }
}

const render = (outcomes: ReadonlyArray<Outcome>): string =>
  `{\n  "validatorVersion": ${JSON.stringify(VALIDATOR_VERSION)},\n  "cases": [\n${outcomes.map((o) => `    ${JSON.stringify(o)}`).join(",\n")}\n  ]\n}\n`

describe("the validator's golden results", () => {
  let computed: { cases: Array<Case>; outcomes: Array<Outcome> } | undefined
  const run = () => {
    if (computed === undefined) {
      const cases = allCases()
      computed = { cases, outcomes: cases.map(outcomeOf) }
    }
    return computed
  }

  if (process.env.GOLDEN_UPDATE === "1") {
    it("writes golden/expected.json", () => {
      writeFileSync(EXPECTED_FILE, render(run().outcomes))
    })
    return
  }

  it("covers the stored texts, the stress texts and their edits, through both readers", () => {
    const { cases, outcomes } = run()
    expect(cases.length).toBeGreaterThan(1000)
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length)
    expect(outcomes.filter((o) => o.reader === "fast").length).toBeGreaterThan(300)
    expect(outcomes.filter((o) => o.reader === "library").length).toBeGreaterThan(300)
    // every code the format's guide documents, so every rule is under watch
    const documented = [...readFileSync(GUIDE_FILE, "utf8").matchAll(/^\| `([a-z_]+)` \| (?:error|warning)/gm)].map((m) => m[1])
    expect(documented.length).toBeGreaterThan(30)
    const seen = new Set(outcomes.flatMap((o) => o.issues.map((i) => i[3])))
    expect(documented.filter((code) => !seen.has(code))).toEqual([])
  })

  it("gives every case the issues, messages, flow, values and offsets it gave before", () => {
    const { cases, outcomes } = run()
    expect(existsSync(EXPECTED_FILE), "golden/expected.json is missing: write it with GOLDEN_UPDATE=1").toBe(true)
    const expected = JSON.parse(readFileSync(EXPECTED_FILE, "utf8")) as { validatorVersion: string; cases: Array<Outcome> }
    expect(VALIDATOR_VERSION).toBe(expected.validatorVersion)
    const byName = new Map(expected.cases.map((o) => [o.name, o]))
    const changed = outcomes.flatMap((o) => {
      const before = byName.get(o.name)
      if (before !== undefined && stable(before) === stable(o)) return []
      const c = cases.find((x) => x.name === o.name)!
      // enough to see what changed without rerunning: the case's text and today's messages
      return [{ name: o.name, before, now: o, text: c.text.slice(0, 2000), messages: validateText(c.text, c.options).issues.map((i) => i.message) }]
    })
    expect(changed.slice(0, 5)).toEqual([])
    expect(outcomes.map((o) => o.name)).toEqual(expected.cases.map((o) => o.name))
  })
})
