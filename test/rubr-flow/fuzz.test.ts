/**
 * Hostile and random input: the validator never throws and always returns well-formed issues; the
 * fast YAML reader agrees exactly with the yaml library (value, problems and lines) whenever it reads
 * a text itself, and gives up whenever the library finds the text broken. Seeded, so every run sees
 * the same inputs.
 */
import { describe, expect, it } from "vitest"
import { fastParse, makeLineOf, type PathSegment, readWithLibrary } from "../../src/rubr_flow/Parse.js"
import { renderFlow } from "../../src/rubr_flow/Render.js"
import { validateText, VALIDATOR_VERSION, type ValidationResult } from "../../src/rubr_flow/Validator.js"

/** mulberry32: a small seeded PRNG. */
const prng = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rand = ReturnType<typeof prng>
const int = (r: Rand, n: number): number => Math.floor(r() * n)
const pick = <A>(r: Rand, xs: ReadonlyArray<A>): A => xs[int(r, xs.length)]
const chance = (r: Rand, p: number): boolean => r() < p

const WORDS = [
  "run", "the", "tests", "check", "it", "a: b", "x #y", "#z", "-", "- x", "1", "1.5", "-0", "0x1F", "0o7", "1_0",
  "true", "False", "null", "~", ".inf", "-.5e3", ".nan", "'q'", "\"dq\"", "é", "✓ done", "日本", "\\", "{", "}", "[",
  "]", ",", "&a", "*a", "!t", "%", "@", "`", "|", ">", "?", "? x", ":", "a:b", "x:", "  ", "", "a\u00a0b", "tab\there",
  "{{repo}}", "${{ x }}", "---", "...", "http://x.y/z#w"
]
/** Words the fast reader reads itself, in any position. */
const SAFE_WORDS = ["run", "the", "tests", "it's", "a:b", "x#y", "1", "1.5", "-0", "0x1F", "true", "null", "é", "✓", "(x)", "{{repo}}", "x-y", "`gh`", "a\u00a0b"]
const KEYS = [
  "id", "title", "action", "check", "uses", "name", "steps", "a", "b", "x_y", "x-y", "_k", "true", "null", "Null",
  "__proto__", "constructor", "1", "a b", "key"
]
const SAFE_KEYS = ["id", "title", "action", "check", "uses", "name", "steps", "a", "b", "x_y", "x-y", "_k", "__proto__"]

/** Random YAML pieces; with `clean`, only forms the fast reader accepts (so both paths get exercised). */
const makeGenerator = (r: Rand, clean: boolean) => {
  const bad = (p: number): boolean => !clean && chance(r, p)
  const word = (): string => pick(r, clean ? SAFE_WORDS : WORDS)
  const words = (n: number): string => Array.from({ length: n }, word).join(clean ? " " : pick(r, [" ", " ", "", "  "]))
  const cont = (ind: number): string => indentSpaces(ind + 1 + int(r, 3) - (bad(0.05) ? 2 : 0))

  /** A random scalar written in a random style, for a value in a block at indentation `ind`. */
  const scalarText = (ind: number): string => {
    switch (int(r, clean ? 8 : 9)) {
      case 0:
      case 1: {
        // plain, maybe folded over lines
        const parts = Array.from({ length: 1 + int(r, 3) }, () => words(1 + int(r, 3)))
        let text = parts[0]
        for (const part of parts.slice(1)) text += `\n${chance(r, 0.3) ? "\n" : ""}${cont(ind)}${part}`
        return text + (chance(r, 0.2) ? " # comment" : "") + (chance(r, 0.1) ? "  " : "")
      }
      case 2:
      case 3: {
        // double quoted with escapes and folds
        const pieces = clean
          ? ["x", " ", "\\n", "\\t", "\\x41", "\\u00e9", "\\U0001F600", "\\ ", '\\"', "\\\\", "\\/", "#", ": ", "'", "é"]
          : ["x", " ", "\\n", "\\x41", "\\ ", '\\"', "\\q", "\\x4", "#", ": ", "'", "é"]
        let text = '"'
        for (let i = 0; i < 1 + int(r, 8); i++) {
          text += pick(r, pieces)
          if (chance(r, 0.15)) {
            text += `${chance(r, 0.3) ? "  " : ""}${chance(r, 0.2) ? "\\" : ""}\n${chance(r, 0.2) ? "\n" : ""}${cont(ind)}x`
          }
        }
        return `${text}${bad(0.05) ? "" : '"'}${chance(r, 0.2) ? " # c" : ""}${bad(0.05) ? "x" : ""}`
      }
      case 4: {
        let text = "'"
        for (let i = 0; i < 1 + int(r, 6); i++) {
          text += pick(r, ["a", " ", "''", "#", ": ", '"', "\\", "é"])
          if (chance(r, 0.15)) text += `\n${chance(r, 0.2) ? "\n" : ""}${cont(ind)}b`
        }
        return `${text}'${chance(r, 0.1) ? " # c" : ""}`
      }
      case 5:
      case 6: {
        // literal block
        const header = pick(r, clean ? ["|", "|", "|-", "|+", "|2", "|1-", "|+3", "|-2", "| # c"] : ["|", "|-", "|+", "|2", "|x", "|  "])
        const explicit = /\d/.exec(header)
        const base = explicit ? ind + Number(explicit[0]) : ind + 1 + int(r, 3)
        const lines: Array<string> = []
        if (chance(r, 0.2)) lines.push(indentSpaces(int(r, clean ? base + 1 : base + 2)))
        for (let i = 0; i < 1 + int(r, 4); i++) {
          const extra = chance(r, 0.2) ? int(r, 4) : 0
          lines.push(
            chance(r, 0.15)
              ? indentSpaces(int(r, clean ? base + 1 : base + 3))
              : `${indentSpaces(base + extra - (bad(0.05) ? 1 : 0))}${chance(r, 0.15) ? "\t" : ""}${words(1 + int(r, 3))}${chance(r, 0.1) ? "\tkept\t" : ""}`
          )
        }
        if (chance(r, 0.3)) lines.push("")
        return `${header}\n${lines.join("\n")}`
      }
      case 7: {
        const items = Array.from({ length: int(r, 4) }, () =>
          chance(r, 0.3) ? `"${clean ? pick(r, ["a b", "1", "x: y", "#"]) : pick(r, WORDS)}"` : chance(r, 0.1) ? `'${clean ? "q" : pick(r, WORDS)}'` : clean ? pick(r, ["a", "b-c", "1", "true", "x y"]) : pick(r, WORDS)
        )
        return `[${items.join(pick(r, [", ", ",", " , "]))}${bad(0.05) ? "," : ""}${bad(0.05) ? "" : "]"}${chance(r, 0.1) ? " # c" : ""}`
      }
      default:
        return pick(r, ["{}", "[]", "", "~", "{a: 1}", "&x 1", "*x", "!!str 1", ">\n  folded"])
    }
  }

  /** A random YAML text. */
  return (): string => {
    const out: Array<string> = []
    const block = (ind: number, depth: number, asSeq: boolean): void => {
      const n = 1 + int(r, 4)
      for (let i = 0; i < n; i++) {
        if (chance(r, 0.1)) out.push(chance(r, 0.5) ? "" : `${indentSpaces(int(r, ind + 3))}# comment`)
        const pad = bad(0.03) ? 1 : 0
        const key = pick(r, clean ? SAFE_KEYS : KEYS)
        const lead = asSeq ? `${indentSpaces(ind + pad)}-${bad(0.1) ? "" : " "}` : `${indentSpaces(ind + pad)}${key}:${bad(0.05) ? "" : " "}`
        const nested = depth < 3 && chance(r, 0.3)
        if (nested) {
          if (asSeq && chance(r, 0.5)) {
            // compact mapping in a list item
            out.push(`${lead}${pick(r, clean ? SAFE_KEYS : KEYS)}: ${scalarText(ind + 2)}`)
            block(ind + 2, depth + 1, false)
          } else {
            out.push(`${lead}${chance(r, 0.1) ? "# c" : ""}`)
            const same = !asSeq && chance(r, 0.3)
            block(same ? ind : ind + 1 + int(r, 3), depth + 1, same ? true : chance(r, 0.5))
          }
        } else {
          out.push(`${lead}${scalarText(ind)}`)
        }
      }
    }
    if (chance(r, 0.1)) out.push("# header")
    block(bad(0.05) ? 2 : 0, 0, bad(0.05))
    return out.join("\n") + (chance(r, 0.9) ? "\n" : "")
  }
}

const indentSpaces = (n: number): string => " ".repeat(Math.max(0, n))

const paths = (value: unknown, prefix: Array<PathSegment> = [], acc: Array<Array<PathSegment>> = []): Array<Array<PathSegment>> => {
  acc.push(prefix)
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], acc))
  else if (value !== null && typeof value === "object") for (const k of Object.keys(value)) paths((value as Record<string, unknown>)[k], [...prefix, k], acc)
  return acc
}

/** The fast reader either gives up or agrees with the library in everything the validator uses. */
const expectFastAgrees = (text: string): "fast" | "library" => {
  const fast = fastParse(text)
  if (fast === undefined) return "library"
  const library = readWithLibrary(text)
  const context = JSON.stringify(text)
  expect(library.fatal, context).toBe(false)
  expect(fast.value, context).toEqual(library.value)
  expect(fast.versionText, context).toEqual(library.versionText)
  const lineOf = makeLineOf(text)
  const problems = (ps: ReadonlyArray<{ code: string; offset: number; path: ReadonlyArray<PathSegment> }>) =>
    ps.map((p) => `${p.code} ${lineOf(p.offset)} ${p.path.join(".")}`)
  expect(problems(fast.problems), context).toEqual(problems(library.problems))
  for (const path of paths(fast.value)) {
    expect(lineOf(fast.offsetOf(path, "node")), `${context} ${path.join(".")}`).toBe(lineOf(library.offsetOf(path, "node")))
    expect(lineOf(fast.offsetOf([...path, "missing"], "container")), context).toBe(lineOf(library.offsetOf([...path, "missing"], "container")))
  }
  return "fast"
}

const CODE = /^[a-z]+(_[a-z]+)*$/

const expectWellFormed = (text: string, result: ValidationResult): void => {
  const lines = text.split("\n").length
  expect(typeof result.valid).toBe("boolean")
  expect(result.validatorVersion).toBe(VALIDATOR_VERSION)
  expect(result.formatVersion === null || typeof result.formatVersion === "string").toBe(true)
  expect(result.valid).toBe(!result.issues.some((i) => i.severity === "error"))
  expect(result.flow === null || typeof result.flow === "object").toBe(true)
  if (result.flow !== null) expect(result.issues.some((i) => ["yaml_syntax", "not_a_mapping", "missing_field"].includes(i.code))).toBe(false)
  let previous: { line: number; path: string; code: string } | undefined
  for (const issue of result.issues) {
    expect(issue.code).toMatch(CODE)
    expect(["error", "warning"]).toContain(issue.severity)
    expect(typeof issue.message).toBe("string")
    expect(issue.message.length).toBeGreaterThan(0)
    expect(Number.isInteger(issue.line)).toBe(true)
    expect(issue.line).toBeGreaterThanOrEqual(1)
    expect(issue.line).toBeLessThanOrEqual(lines)
    expect(typeof issue.path).toBe("string")
    if (previous !== undefined) {
      const order = previous.line - issue.line || (previous.path < issue.path ? -1 : previous.path > issue.path ? 1 : 0) ||
        (previous.code < issue.code ? -1 : previous.code > issue.code ? 1 : 0)
      expect(order).toBeLessThanOrEqual(0)
    }
    previous = issue
  }
}

const validDoc = (): Record<string, unknown> => ({
  rubr_flow: "1.0",
  name: "Fix CI",
  description: "Find why CI fails on a pull request and fix it.",
  when_to_use: "When a pull request's checks fail.",
  sources: [{ path: "SKILL.md", lines: 80 }],
  inputs: [{ id: "pr", description: "The pull request number.", from: "SKILL.md:3" }],
  steps: [
    { id: "inspect", title: "Inspect the checks", action: "Run `gh pr checks {{pr}}`.\nNote each failing check.\n", check: "You have the list of failing checks.", uses: ["pr"], produces: ["failures"], from: "SKILL.md:10-20" },
    { id: "fix", title: "Fix", action: "Fix the first failure: read its log: `gh run view --log-failed`.", check: "The check passes locally.", uses: ["failures"], on_failure: "stuck", from: "SKILL.md:21-40" }
  ],
  outputs: [{ id: "failures", description: "The failing checks.", from: "SKILL.md:10-20" }],
  guardrails: [{ never: "Push to main directly." }, { must: "Keep the fix minimal." }],
  failure_handling: [{ id: "stuck", when: "A failure cannot be fixed.", then: "Stop and report.", resume_at: "inspect" }]
})

/** Small edits that break files in the ways people and models do. */
const mutate = (r: Rand, text: string): string => {
  const lines = text.split("\n")
  const edits = 1 + int(r, 3)
  for (let e = 0; e < edits; e++) {
    const i = int(r, lines.length)
    switch (int(r, 12)) {
      case 0:
        lines.splice(i, 1)
        break
      case 1:
        lines.splice(i, 0, lines[int(r, lines.length)] ?? "")
        break
      case 2:
        lines[i] = ` ${lines[i]}`
        break
      case 3:
        lines[i] = (lines[i] ?? "").replace(/^ {1,2}/, "")
        break
      case 4:
        lines[i] = `${lines[i]}${pick(r, [":", " #", " - x", "'", '"', "[", "]", "{", "\t", " &a", " *a", ": x"])}`
        break
      case 5: {
        const line = lines[i] ?? ""
        const at = int(r, line.length + 1)
        lines[i] = line.slice(0, at) + pick(r, WORDS) + line.slice(at + int(r, 3))
        break
      }
      case 6:
        lines[i] = (lines[i] ?? "").replace(/[a-z]+:/, pick(r, ["chek:", "titel:", "uses:", "id:", "from:", "never:"]))
        break
      case 7:
        lines.splice(i, 0, pick(r, ["---", "...", "%YAML 1.2", "\t", "? x", "- - x", "&a b: c", "<<: *a", "!!map", "key: value", ""]))
        break
      case 8: {
        const j = int(r, lines.length)
        const tmp = lines[i]
        lines[i] = lines[j]
        lines[j] = tmp
        break
      }
      case 9:
        lines[i] = (lines[i] ?? "").replace(/\b[a-z]+-?[a-z]*\b/, pick(r, ["nope", "Fix CI", "1", "true", "", "x".repeat(90)]))
        break
      case 10:
        lines[i] = `${lines[i]}\r`
        break
      default:
        lines[i] = (lines[i] ?? "").slice(0, int(r, (lines[i] ?? "").length + 1))
    }
  }
  return lines.join("\n")
}

const randomBytes = (r: Rand): string => {
  const n = int(r, 200)
  let s = ""
  for (let i = 0; i < n; i++) {
    s += chance(r, 0.7)
      ? String.fromCharCode(int(r, 128))
      : chance(r, 0.5)
        ? pick(r, [":", "-", " ", "\n", "[", "]", "{", "}", "#", "'", '"', "|", "&", "*", "!", "\t", "\r", "?"])
        : String.fromCharCode(int(r, 0x10000))
  }
  return s
}

describe("the fast YAML reader", () => {
  it("reads rendered flows itself and agrees with the yaml library", () => {
    const r = prng(7)
    for (let i = 0; i < 50; i++) {
      const doc = validDoc()
      // any text but tabs (the fast reader leaves tabs to the library)
      const awkward = WORDS.filter((w) => !w.includes("\t"))
      const steps = doc.steps as Array<Record<string, unknown>>
      steps[0].check = Array.from({ length: 3 + int(r, 40) }, () => pick(r, awkward)).join(pick(r, [" ", "\n", " \n"]))
      steps[1].title = Array.from({ length: 1 + int(r, 5) }, () => pick(r, awkward)).join(" ")
      const text = renderFlow(doc)
      expect(expectFastAgrees(text)).toBe("fast")
    }
  })

  it("agrees with the yaml library on thousands of random YAML texts, or gives up", () => {
    const r = prng(2026)
    const clean = makeGenerator(r, true)
    const noisy = makeGenerator(r, false)
    const count = { fast: 0, library: 0 }
    for (let i = 0; i < 4000; i++) {
      const text = i % 2 === 0 ? clean() : noisy()
      // Windows line endings too (CRLF is one line break)
      count[expectFastAgrees(i % 4 < 2 ? text : text.replace(/\n/g, "\r\n"))]++
    }
    // both paths are exercised
    expect(count.fast).toBeGreaterThan(800)
    expect(count.library).toBeGreaterThan(800)
  })
})

describe("the validator on hostile input", () => {
  it("never throws and returns well-formed issues for thousands of random and mutated texts", () => {
    const r = prng(1234)
    const randomYaml = makeGenerator(r, false)
    const seeds = [renderFlow(validDoc()), JSON.stringify(validDoc()), renderFlow(validDoc(), { header: ["a header"] })]
    let fastAgreements = 0
    for (let i = 0; i < 3000; i++) {
      const kind = i % 3
      const text = kind === 0 ? mutate(r, pick(r, seeds)) : kind === 1 ? randomBytes(r) : randomYaml()
      let result: ValidationResult | undefined
      expect(() => {
        result = validateText(text)
      }, JSON.stringify(text)).not.toThrow()
      expectWellFormed(text, result!)
      if (kind === 0 && expectFastAgrees(text) === "fast") fastAgreements++
    }
    expect(fastAgreements).toBeGreaterThan(100)
  })

  it("gives the same result for the same text", () => {
    const r = prng(99)
    for (let i = 0; i < 200; i++) {
      const text = mutate(r, renderFlow(validDoc()))
      expect(validateText(text)).toEqual(validateText(text))
    }
  })

  it("handles huge, long-lined and many-keyed inputs quickly", () => {
    const started = Date.now()
    const many = Array.from({ length: 40_000 }, (_, i) => `k${i}: v${i}`).join("\n")
    expectWellFormed(many, validateText(many))
    const long = `rubr_flow: "1.0"\nname: ${"word ".repeat(150_000)}\n`
    expectWellFormed(long, validateText(long))
    const items = `rubr_flow: "1.0"\nsteps:\n${"  - x\n".repeat(100_000)}`
    const r = validateText(items)
    expectWellFormed(items, r)
    expect(r.issues.length).toBeLessThanOrEqual(500)
    const aliases = `a: &a x\nb: [${Array(50_000).fill("*a").join(", ")}]\n`
    expectWellFormed(aliases, validateText(aliases))
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it("accepts non-string input at run time without throwing", () => {
    for (const v of [undefined, null, 42, {}, []]) {
      expect(() => validateText(v as unknown as string)).not.toThrow()
    }
  })
})
