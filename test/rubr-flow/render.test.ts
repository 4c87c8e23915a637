/**
 * The rubr_flow renderer: the layout a person reads (order, comments, blank lines, block and flow
 * styles), malformed documents still rendered, and the round trip through the validator for awkward
 * text.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { RubrFlow } from "../../src/rubr_flow/Format.js"
import { renderFlow } from "../../src/rubr_flow/Render.js"
import { validateText } from "../../src/rubr_flow/Validator.js"

type Doc = Record<string, any>

const base = (): Doc => ({
  rubr_flow: "1.0",
  name: "Release",
  description: "Cut a release.",
  when_to_use: "When asked to release.",
  sources: [{ path: "RELEASE.md", content_hash: `sha256:${"b".repeat(64)}`, lines: 30 }],
  inputs: [{ id: "version", description: "The version.", from: "RELEASE.md:1" }],
  steps: [
    {
      id: "bump",
      title: "Bump",
      action: "Edit package.json:\n  set \"version\" to {{version}}.\n",
      check: "package.json says {{version}}.",
      uses: ["version"],
      produces: ["bumped"],
      from: "RELEASE.md:2-5"
    },
    { id: "tag", title: "Tag", action: "git tag", check: "The tag exists.", uses: ["bumped"], on_failure: "retry", from: "RELEASE.md:6-9" }
  ],
  outputs: [{ id: "bumped", description: "The bumped version.", from: "RELEASE.md:2-5" }],
  guardrails: [{ must: "Run the tests first.", id: "tests" }, { never: "Force-push." }],
  failure_handling: [{ id: "retry", when: "The tag push fails.", then: "Retry once.", resume_at: "tag" }],
  evals: [{ id: "e1", name: "Happy", type: "standard", input: "Release 1.0.0", expected_behavior: "Tags it.", pass_criteria: "A tag exists." }]
})

const decode = Schema.decodeUnknownSync(RubrFlow)

const expectRoundTrip = (doc: Doc): string => {
  const text = renderFlow(doc)
  const result = validateText(text)
  const expected = decode(doc)
  expect(result.flow, text).toEqual(expected)
  expect(text.split("\n").filter((l) => /[ \t]$/.test(l)), text).toEqual([])
  expect(text.endsWith("\n") && !text.endsWith("\n\n"), text).toBe(true)
  return text
}

describe("the layout", () => {
  it("renders the canonical file a person reads", () => {
    expect(renderFlow(base(), { header: ["Converted from RELEASE.md", "by rubr"] })).toBe(`# Converted from RELEASE.md
# by rubr

rubr_flow: "1.0"

# What this procedure is, and when an agent should follow it.
name: Release
description: Cut a release.
when_to_use: When asked to release.

# Sources this flow was converted from; each \`from: PATH:START-END\` points into one of them.
sources:
  - path: RELEASE.md
    content_hash: sha256:${"b".repeat(64)}
    lines: 30

# Inputs the procedure needs; steps name them in \`uses\` or as {{id}} in their text.
inputs:
  - id: version
    description: The version.
    from: RELEASE.md:1

# Steps, in order: each has an action and a check.
steps:
  - id: bump
    title: Bump
    action: |
      Edit package.json:
        set "version" to {{version}}.
    check: package.json says {{version}}.
    uses: [version]
    produces: [bumped]
    from: RELEASE.md:2-5

  - id: tag
    title: Tag
    action: git tag
    check: The tag exists.
    uses: [bumped]
    on_failure: retry
    from: RELEASE.md:6-9

# Outputs the steps produce (see each step's \`produces\`).
outputs:
  - id: bumped
    description: The bumped version.
    from: RELEASE.md:2-5

# Guardrails: what the agent must always do (must) and must never do (never).
guardrails:
  - id: tests
    must: Run the tests first.
  - never: Force-push.

# Failure handling: what to do when something goes wrong, and where to resume.
failure_handling:
  - id: retry
    when: The tag push fails.
    then: Retry once.
    resume_at: tag

# Suggested evaluation cases.
evals:
  - id: e1
    name: Happy
    type: standard
    input: Release 1.0.0
    expected_behavior: Tags it.
    pass_criteria: A tag exists.
`)
  })

  it("puts known keys in the canonical order whatever the input order, unknown keys after them", () => {
    const doc = base()
    const shuffled: Doc = { zeta: 1, evals: doc.evals, steps: doc.steps.map((s: Doc) => ({ from: s.from, extra: true, ...s })), rubr_flow: "1.0" }
    for (const k of ["failure_handling", "guardrails", "outputs", "inputs", "sources", "when_to_use", "description", "name"]) shuffled[k] = doc[k]
    const text = renderFlow(shuffled)
    const topKeys = text.split("\n").filter((l) => /^[a-z_]+:/.test(l)).map((l) => l.split(":")[0])
    expect(topKeys).toEqual(["rubr_flow", "name", "description", "when_to_use", "sources", "inputs", "steps", "outputs", "guardrails", "failure_handling", "evals", "zeta"])
    expect(text).toContain("# Not part of rubr_flow 1.0")
    const stepKeys = text.slice(text.indexOf("steps:"), text.indexOf("outputs:")).split("\n").filter((l) => /^ {4}[a-z_]+:|^ {2}- [a-z_]+:/.test(l)).map((l) => l.trim().replace(/^- /, "").split(":")[0])
    expect(stepKeys.slice(0, 9)).toEqual(["id", "title", "action", "check", "uses", "produces", "from", "extra", "id"])
    const again = renderFlow(JSON.parse(JSON.stringify(shuffled)))
    expect(again).toBe(text)
  })

  it("is deterministic, ends with one newline and leaves no trailing spaces", () => {
    const doc = base()
    doc.steps[0].check = "ends with spaces   "
    doc.steps[1].action = "a line with trailing spaces   \nnext line\n\n\n"
    doc.description = "two\n\nparagraphs\n"
    const text = renderFlow(doc)
    expect(renderFlow(doc)).toBe(text)
    expect(text.endsWith("\n")).toBe(true)
    expect(text.endsWith("\n\n")).toBe(false)
    expect(text.split("\n").filter((l) => /[ \t]$/.test(l))).toEqual([])
    expectRoundTrip(doc)
  })

  it("keeps short id lists on one line and long or unusual lists as blocks", () => {
    const doc = base()
    doc.steps[0].uses = Array.from({ length: 12 }, (_, i) => `input-number-${i}`)
    doc.steps[1].uses = []
    doc.extra = ["a sentence, with a comma", "b"]
    const text = renderFlow(doc)
    expect(text).toContain("    uses:\n      - input-number-0\n")
    expect(text).toContain("    uses: []\n")
    expect(text).toContain('extra:\n  - a sentence, with a comma\n  - b\n')
  })

  it("folds long single-line text and keeps multi-line text as a literal block", () => {
    const doc = base()
    const long = "Run the whole test suite with coverage and compare the numbers with the previous release; stop if anything got worse by more than one percent."
    doc.steps[0].check = long
    const text = expectRoundTrip(doc)
    expect(text).toContain("    check: Run the whole test suite")
    expect(text.split("\n").every((l) => l.length <= 110)).toBe(true)
    expect(text).toContain("    action: |\n      Edit package.json:\n")
  })

  it("keeps rubr_flow a quoted string", () => {
    expect(renderFlow(base())).toContain('rubr_flow: "1.0"\n')
    expect(validateText(renderFlow(base())).formatVersion).toBe("1.0")
  })

  it("writes the header as comments, one per line", () => {
    const text = renderFlow(base(), { header: ["first", "", "second\nthird  "] })
    expect(text.startsWith("# first\n#\n# second\n# third\n\nrubr_flow:")).toBe(true)
  })
})

describe("malformed documents", () => {
  it("render as they are, so the validator can point at the problems", () => {
    const doc: Doc = {
      name: 42,
      rubr_flow: 1,
      steps: "do the thing",
      guardrails: [{ must: "x", never: "y" }, "plain text", null, 3.5, true],
      inputs: [{ description: "no id", id: undefined }],
      outputs: { not: "a list" },
      evals: [[1, [2, [3]]]],
      failure_handling: [{ then: "z", when: null }]
    }
    const text = renderFlow(doc)
    expect(text).toContain("rubr_flow: 1\n")
    expect(text).toContain("name: 42\n")
    expect(text).toContain("steps: do the thing\n")
    expect(text).toContain("  - plain text\n  - null\n  - 3.5\n  - true\n")
    expect(text).toContain("  - description: no id\n")
    expect(text).toContain("outputs:\n  not: a list\n")
    expect(text).toContain("  - when: null\n    then: z\n")
    const r = validateText(text)
    expect(r.flow).toBeNull()
    expect(r.issues.map((i) => i.code)).toContain("unsupported_version")
    expect(r.issues.every((i) => i.line >= 1)).toBe(true)
  })

  it("survives values JSON cannot hold: cycles, dates, big integers, functions, symbols, maps", () => {
    const doc: Doc = base()
    doc.self = doc
    doc.when = new Date(Date.UTC(2026, 0, 2))
    doc.big = 12345678901234567890n
    doc.fn = () => 1
    doc.sym = Symbol("s")
    doc.map = new Map([["a", 1]])
    doc.set = new Set(["x"])
    const text = renderFlow(doc)
    expect(text).toContain("self: null\n")
    expect(text).toContain("when: 2026-01-02T00:00:00.000Z\n")
    expect(text).toContain('big: "12345678901234567890"\n')
    expect(text).toContain("map:\n  a: 1\n")
    expect(text).toContain("set: [x]\n")
    expect(validateText(text).issues.filter((i) => i.code === "unknown_field").map((i) => i.path)).toEqual([
      "self", "when", "big", "fn", "sym", "map", "set"
    ])
  })

  it("renders a non-object document and an empty one", () => {
    expect(renderFlow([] as unknown as Doc)).toBe("[]\n")
    expect(renderFlow("text" as unknown as Doc)).toBe("text\n")
    expect(renderFlow({})).toBe("{}\n")
    expect(validateText(renderFlow({})).issues.map((i) => i.code)).toContain("unsupported_version")
  })
})

describe("round trip", () => {
  const awkward = [
    "",
    " ",
    "  leading spaces",
    "trailing spaces  ",
    "key: value inside",
    "ends with a colon:",
    "a # hash after a space",
    "#starts with a hash",
    "x#y",
    "'single' quotes",
    '"double" quotes',
    "both ' and \" quotes",
    "back\\slash \\n not a newline",
    "ünïcödé ✓ 日本語 עברית 🎉",
    "zero\u200bwidth and\u00a0nbsp",
    "tab\tinside",
    "\tleading tab",
    "trailing tab\t",
    "1.0",
    "0x1F",
    "1e3",
    "-0",
    ".inf",
    "true",
    "False",
    "no",
    "null",
    "~",
    "-",
    "- looks like a list",
    "? looks like a key",
    "[a, b]",
    "{a: b}",
    "*alias",
    "&anchor",
    "!tag",
    "%directive",
    "@at",
    "`code`",
    "| literal",
    "> folded",
    "---",
    "...",
    "{{version}} and ${{ secrets.TOKEN }}",
    "x".repeat(3000),
    "word ".repeat(600).trim(),
    "line one\nline two",
    "line one\nline two\n",
    "ends with blank lines\n\n\n",
    "\nstarts with a newline",
    "\n\n",
    "\n",
    "  indented first line\nsecond",
    "trailing spaces on a line   \nnext",
    "only spaces on a line\n   \nnext",
    "# a comment-looking line\n# another\n",
    "a: b\n  c: d\n- e\n",
    "windows\r\nline\r\nendings\r\n",
    "a lone\rcarriage return",
    "control \u0001 \u0007 \u001b chars",
    "line\u2028separator and \u0085 next line",
    "lone surrogate \ud800 here",
    "---\nnot a document marker\n...\n",
    "tab\tin\n\tlines\t\n",
    "text\n  \n"
  ]

  it("gives back every awkward text in every text field", () => {
    for (const s of awkward) {
      const doc = base()
      doc.description = s
      doc.when_to_use = s
      doc.steps[0].title = s
      doc.steps[0].action = s
      doc.steps[1].check = s
      doc.inputs[0].description = s
      doc.guardrails[1].never = s
      doc.failure_handling[0].then = s
      doc.evals[0].input = s
      // a path is one line (a `from` names it)
      doc.sources[0].path = s === "" || /[\n\r\u2028\u0085]/.test(s) ? "x" : s
      doc.steps[0].from = `${doc.sources[0].path}:2-5`
      doc.outputs[0].from = `${doc.sources[0].path}:2-5`
      doc.inputs[0].from = `${doc.sources[0].path}:1`
      doc.steps[1].from = `${doc.sources[0].path}:6-9`
      const text = expectRoundTrip(doc)
      expect(text.split("\n").filter((l) => /[ \t]$/.test(l)), JSON.stringify(s)).toEqual([])
    }
  })

  it("gives back names up to 100 characters and unusual but valid ids", () => {
    const doc = base()
    doc.name = "n".repeat(100)
    doc.steps[0].id = "0"
    doc.steps[1].id = "a_b-c".padEnd(80, "z")
    doc.failure_handling[0].resume_at = doc.steps[1].id
    expectRoundTrip(doc)
  })

  it("gives back random documents built from awkward text (seeded)", () => {
    let seed = 42
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rand() * xs.length)]
    const text = () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(awkward)).join(pick([" ", "\n", "", ": "]))
    for (let n = 0; n < 150; n++) {
      const steps = Array.from({ length: 1 + Math.floor(rand() * 6) }, (_, i) => ({
        id: `s${i}`,
        title: text(),
        action: text(),
        check: text(),
        ...(rand() < 0.5 ? { uses: [`in-${i}`] } : {}),
        ...(rand() < 0.3 ? { produces: [`out-${i}`] } : {})
      }))
      const doc: Doc = {
        rubr_flow: "1.0",
        name: text().slice(0, 100) || "n",
        description: text(),
        when_to_use: text(),
        inputs: steps.map((_, i) => ({ id: `in-${i}`, description: text(), ...(rand() < 0.5 ? { required: rand() < 0.5 } : {}) })),
        steps,
        outputs: steps.map((_, i) => ({ id: `out-${i}`, description: text() })),
        guardrails: [rand() < 0.5 ? { must: text() } : { never: text(), id: "g" }],
        failure_handling: [{ id: "f", when: text(), then: text() }]
      }
      expectRoundTrip(doc)
    }
  })
})
