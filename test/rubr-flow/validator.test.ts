/**
 * The rubr_flow validator: every issue code (each test fails without its rule), lines and paths,
 * messages a person can act on, source mapping against the real sources, determinism.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { renderFlow } from "../../src/rubr_flow/Render.js"
import {
  guardrailGist,
  guardrailSimilarity,
  lineCount,
  MAX_ISSUES,
  validateText,
  VALIDATOR_VERSION,
  type ValidationResult
} from "../../src/rubr_flow/Validator.js"

type Doc = Record<string, any>

/** A complete, valid flow with no warnings. */
const base = (): Doc => ({
  rubr_flow: "1.0",
  name: "Release the package",
  description: "Cut a release: bump the version, tag it and publish it.",
  when_to_use: "When a maintainer asks for a release.",
  sources: [{ path: "RELEASE.md", content_hash: `sha256:${"a".repeat(64)}`, lines: 40 }],
  inputs: [
    { id: "repo", description: "The repository.", from: "RELEASE.md:1-2" },
    { id: "version", description: "The version to release.", required: true, from: "RELEASE.md:3" }
  ],
  steps: [
    {
      id: "bump",
      title: "Bump the version",
      action: "Set the version in package.json to {{version}}.",
      check: "package.json says {{version}}.",
      uses: ["repo", "version"],
      produces: ["bumped"],
      from: "RELEASE.md:5-9"
    },
    {
      id: "tag",
      title: "Tag the release",
      action: "Run `git tag v{{version}}` and push the tag.",
      check: "`git ls-remote --tags` lists the tag.",
      uses: ["bumped"],
      produces: ["tag"],
      on_failure: "push-rejected",
      from: "RELEASE.md:10-20"
    },
    {
      id: "publish",
      title: "Publish",
      action: "Run `npm publish`.",
      check: "`npm view` shows the new version.",
      uses: ["tag"],
      from: "RELEASE.md:21-30"
    }
  ],
  outputs: [
    { id: "bumped", description: "The commit with the new version.", from: "RELEASE.md:5-9" },
    { id: "tag", description: "The pushed tag.", from: "RELEASE.md:10-20" }
  ],
  guardrails: [
    { id: "tests-first", must: "Run the test suite before tagging.", from: "RELEASE.md:31-32" },
    { never: "Force-push to the main branch." }
  ],
  failure_handling: [
    { id: "push-rejected", when: "The push is rejected.", then: "Fetch, rebase and push again.", resume_at: "tag" }
  ],
  evals: [
    {
      id: "happy",
      name: "Happy path",
      type: "standard",
      input: "Release 1.2.0",
      expected_behavior: "Follows the steps in order.",
      pass_criteria: "The tag v1.2.0 exists and the package is published."
    }
  ]
})

const validate = (doc: Doc, options?: Parameters<typeof validateText>[1]): ValidationResult =>
  validateText(renderFlow(doc), options)

const codes = (r: ValidationResult): Array<string> => r.issues.map((i) => i.code)

const find = (r: ValidationResult, code: string) => {
  const issue = r.issues.find((i) => i.code === code)
  if (issue === undefined) throw new Error(`no ${code} in ${JSON.stringify(r.issues, null, 1)}`)
  return issue
}

/** The 1-based line of the first line of `text` that contains `needle`. */
const lineOf = (text: string, needle: string, from = 0): number => {
  const at = text.indexOf(needle, from)
  if (at === -1) throw new Error(`${needle} not in text`)
  return text.slice(0, at).split("\n").length
}

describe("a valid flow", () => {
  it("has no issues, decodes with defaults and reports the versions", () => {
    const r = validate(base())
    expect(r.issues).toEqual([])
    expect(r.valid).toBe(true)
    expect(r.validatorVersion).toBe(VALIDATOR_VERSION)
    expect(r.formatVersion).toBe("1.0")
    expect(r.flow?.steps.map((s) => s.id)).toEqual(["bump", "tag", "publish"])
  })

  it("fills the optional sections with empty lists", () => {
    const doc = base()
    delete doc.evals
    const r = validate(doc)
    expect(r.valid).toBe(true)
    expect(r.flow?.evals).toEqual([])
  })

  it("accepts the same document written as JSON (YAML is a superset)", () => {
    const r = validateText(JSON.stringify(base()))
    expect(r.issues).toEqual([])
    expect(r.flow).toEqual(validate(base()).flow)
  })

  it("accepts a hand-written file with comments, folded plain text and a document start marker", () => {
    const text = [
      "---",
      "# A release procedure",
      'rubr_flow: "1.0"   # the format version',
      "name: Release",
      "description: Cut a release,",
      "  then announce it.",
      "when_to_use: 'When asked to release.'",
      "steps:",
      "- id: go",
      "  title: Go",
      "  action: |-",
      "    Do it.",
      "    # not a comment: part of the text",
      '  check: "It is done."',
      "guardrails:",
      "  - never: Skip the tests.",
      "failure_handling:",
      "  - {id: stop, when: It fails., then: Stop.}",
      ""
    ].join("\n")
    const r = validateText(text)
    expect(r.issues).toEqual([])
    expect(r.flow?.description).toBe("Cut a release, then announce it.")
    expect(r.flow?.steps[0].action).toBe("Do it.\n# not a comment: part of the text")
    expect(r.flow?.failure_handling[0]).toEqual({ id: "stop", when: "It fails.", then: "Stop." })
  })
})

describe("reading the text", () => {
  it("empty_document: empty text, blank lines or only comments", () => {
    for (const text of ["", "\n\n", "# nothing here\n"]) {
      const r = validateText(text)
      expect(codes(r)).toEqual(["empty_document"])
      expect(r.issues[0]).toMatchObject({ line: 1, path: "", severity: "error" })
      expect(r.valid).toBe(false)
      expect(r.formatVersion).toBeNull()
    }
  })

  it("not_a_mapping: a list or a scalar at the top", () => {
    expect(codes(validateText("- a\n- b\n"))).toEqual(["not_a_mapping"])
    expect(codes(validateText("just some text\n"))).toEqual(["not_a_mapping"])
    expect(codes(validateText("42"))).toEqual(["not_a_mapping"])
    expect(find(validateText("[1, 2]"), "not_a_mapping").message).toContain('rubr_flow: "1.0"')
  })

  it("reads Windows line endings like Unix ones, with the same lines", () => {
    const doc = base()
    doc.steps[1].uses = ["nope"]
    const text = renderFlow(doc)
    const lf = validateText(text)
    const crlf = validateText(text.replace(/\n/g, "\r\n"))
    expect(crlf).toEqual(lf)
    expect(find(crlf, "undefined_reference").line).toBe(lineOf(text, "uses: [nope]"))
  })

  it("yaml_syntax: reports the line of the error and stops", () => {
    const text = 'rubr_flow: "1.0"\nname: x\nsteps: [a, b\ndescription: d\n'
    const r = validateText(text)
    expect(codes(r)).toEqual(["yaml_syntax"])
    expect(r.issues[0].line).toBe(4)
    expect(r.flow).toBeNull()
    expect(r.formatVersion).toBe("1.0")
  })

  it("yaml_syntax: tabs used as indentation", () => {
    const r = validateText('rubr_flow: "1.0"\nsteps:\n\t- id: x\n')
    expect(r.issues[0]).toMatchObject({ code: "yaml_syntax", line: 3 })
    expect(r.issues[0].message).toMatch(/tabs/i)
  })

  it("yaml_warning: an unknown tag is reported but the file is still read", () => {
    const text = renderFlow(base()).replace("name: Release the package", "name: !custom Release the package")
    const r = validateText(text)
    expect(r.issues).toEqual([expect.objectContaining({ code: "yaml_warning", severity: "warning", line: lineOf(text, "!custom") })])
    expect(r.valid).toBe(true)
    expect(r.flow?.name).toBe("Release the package")
  })

  it("multiple_documents: a second document is an error at its marker; the first is still checked", () => {
    const text = `${renderFlow(base())}---\nname: other\n`
    const r = validateText(text)
    expect(codes(r)).toEqual(["multiple_documents"])
    expect(r.issues[0].line).toBe(lineOf(text, "---"))
    expect(r.flow?.name).toBe("Release the package")
  })

  it("duplicate_key: the later key is reported with its path, the last value wins", () => {
    const text = renderFlow(base()).replace("    title: Tag the release\n", "    title: Tag the release\n    title: Tag it\n")
    const r = validateText(text)
    expect(r.issues).toEqual([
      expect.objectContaining({ code: "duplicate_key", path: "steps.1.title", line: lineOf(text, "title: Tag it") })
    ])
    expect(r.flow).not.toBeNull()
    expect(r.flow?.steps[1].title).toBe("Tag it")
  })

  it("duplicate_key: also found by the full YAML reader (flow mappings)", () => {
    const r = validateText('{rubr_flow: "1.0", name: a, name: b}')
    expect(find(r, "duplicate_key")).toMatchObject({ path: "name", line: 1 })
  })

  it("invalid_key: a list or mapping used as a key", () => {
    const r = validateText('? [a, b]\n: 1\nrubr_flow: "1.0"\n')
    expect(find(r, "invalid_key")).toMatchObject({ line: 1, severity: "error" })
  })

  it("yaml_alias: aliases expand, an unknown anchor, a cycle and a billion laughs are errors", () => {
    const doc = renderFlow(base()).replace("    title: Tag the release", "    title: &t Tag the release").replace("    title: Publish", "    title: *t")
    const ok = validateText(doc)
    expect(ok.issues).toEqual([])
    expect(ok.flow?.steps[2].title).toBe("Tag the release")

    expect(find(validateText('rubr_flow: "1.0"\nname: *nope\n'), "yaml_alias").message).toContain("*nope")
    expect(find(validateText('rubr_flow: "1.0"\na: &x [1, *x]\n'), "yaml_alias")).toMatchObject({ path: "a.1", line: 2 })

    const laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i)
      laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${prev}`).join(", ")}]`)
    }
    const started = Date.now()
    const r = validateText(laughs.join("\n"))
    expect(codes(r)).toEqual(["yaml_alias"])
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it("too_large: the text is refused before parsing", () => {
    const r = validateText(`rubr_flow: "1.0"\nname: ${"x".repeat(1024 * 1024)}\n`)
    expect(codes(r)).toEqual(["too_large"])
  })

  it("too_deep: deep nesting is refused, before or while reading", () => {
    expect(codes(validateText("[".repeat(5000) + "]".repeat(5000)))).toEqual(["too_deep"])
    expect(codes(validateText(`a: ${"[".repeat(80)}${"]".repeat(80)}`))).toEqual(["too_deep"])
    const block = Array.from({ length: 1000 }, (_, i) => `${" ".repeat(i)}a:`).join("\n")
    expect(codes(validateText(block))).toEqual(["too_deep"])
  })

  it("never lets __proto__ or constructor keys touch a prototype", () => {
    const text = `__proto__:\n  polluted: true\nconstructor:\n  prototype:\n    polluted: true\n${renderFlow(base())}`
    const r = validateText(text)
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([
      ["unknown_field", "__proto__"],
      ["unknown_field", "constructor"]
    ])
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false)
    const json = validateText(`{"__proto__": {"polluted": true}, ${JSON.stringify(base()).slice(1)}`)
    expect(codes(json)).toEqual(["unknown_field"])
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })
})

describe("the shape", () => {
  it("unsupported_version: missing key, unquoted number, another version", () => {
    const missing = base()
    delete missing.rubr_flow
    const missingText = renderFlow(missing)
    const r1 = validateText(missingText)
    expect(r1.issues).toEqual([
      expect.objectContaining({ code: "unsupported_version", path: "rubr_flow", line: lineOf(missingText, "name:") })
    ])
    expect(r1.issues[0].message).toContain('rubr_flow: "1.0"')
    expect(r1.formatVersion).toBeNull()

    const text = renderFlow(base()).replace('rubr_flow: "1.0"', "rubr_flow: 1.0")
    const r2 = validateText(text)
    expect(codes(r2)).toEqual(["unsupported_version"])
    expect(r2.issues[0].message).toMatch(/with the quotes/)
    expect(r2.formatVersion).toBe("1.0")

    const r3 = validate({ ...base(), rubr_flow: "1.1" })
    expect(codes(r3)).toEqual(["unsupported_version"])
    expect(r3.formatVersion).toBe("1.1")
  })

  it("unsupported_version: another major version is not checked further", () => {
    const r = validateText('rubr_flow: "2.0"\nwhatever: 1\n')
    expect(codes(r)).toEqual(["unsupported_version"])
    expect(r.formatVersion).toBe("2.0")
    expect(r.issues[0].message).toContain('"2.0"')
  })

  it("missing_field: points at the enclosing mapping and says what to add", () => {
    const doc = base()
    delete doc.steps[1].check
    const text = renderFlow(doc)
    const r = validateText(text)
    expect(r.issues).toEqual([
      expect.objectContaining({ code: "missing_field", path: "steps.1.check", line: lineOf(text, "- id: tag"), severity: "error" })
    ])
    expect(r.issues[0].message).toContain("`check`")
    expect(r.issues[0].message).toContain('Step "tag"')
    expect(r.flow).toBeNull()
  })

  it("missing_field: top-level fields", () => {
    const doc = base()
    delete doc.when_to_use
    delete doc.steps
    const r = validate(doc)
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([
      ["missing_field", "steps"],
      ["missing_field", "when_to_use"]
    ])
  })

  it("unknown_field: names the key and suggests the likely one", () => {
    const doc = base()
    doc.steps[0].chek = doc.steps[0].check
    delete doc.steps[0].check
    doc.when_to_us = doc.when_to_use
    delete doc.when_to_use
    doc.guardrails.push({ mst: "Write a changelog entry." })
    const text = renderFlow(doc)
    const r = validateText(text)
    const chek = r.issues.find((i) => i.path === "steps.0.chek")
    expect(chek).toMatchObject({ code: "unknown_field", line: lineOf(text, "chek:") })
    expect(chek?.message).toContain("did you mean `check`?")
    expect(r.issues.find((i) => i.path === "when_to_us")?.message).toContain("did you mean `when_to_use`?")
    expect(r.issues.find((i) => i.path === "guardrails.2.mst")?.message).toContain("did you mean `must`?")
    expect(r.issues.filter((i) => i.code === "missing_field").map((i) => i.path).sort()).toEqual([
      "guardrails.2.must",
      "steps.0.check",
      "when_to_use"
    ])
  })

  it("unknown_field: a key that belongs elsewhere, a synonym, and one with no suggestion", () => {
    const doc = base()
    doc.check = "x"
    doc.steps[0].verify = "y"
    doc.steps[1].zzzzzz = 1
    const r = validate(doc)
    expect(r.issues.find((i) => i.path === "check")?.message).toContain("belongs in a step")
    expect(r.issues.find((i) => i.path === "steps.0.verify")?.message).toContain("did you mean `check`?")
    expect(r.issues.find((i) => i.path === "steps.1.zzzzzz")?.message).toContain("the keys here are id, title, action, check")
  })

  it("invalid_type: a value of the wrong kind", () => {
    const doc = base()
    doc.steps[0].title = 3
    doc.steps[1].uses = "bumped"
    doc.inputs[1].required = "yes"
    doc.outputs = { tag: "x" }
    const r = validate(doc)
    const byPath = Object.fromEntries(r.issues.filter((i) => i.code === "invalid_type").map((i) => [i.path, i.message]))
    expect(Object.keys(byPath).sort()).toEqual(["inputs.1.required", "outputs", "steps.0.title", "steps.1.uses"])
    expect(byPath["steps.0.title"]).toContain("found the number 3")
    expect(byPath["steps.1.uses"]).toContain("[bumped]")
    expect(byPath["inputs.1.required"]).toContain("true or false")
  })

  it("invalid_type: guardrails that are not mappings, or have both kinds", () => {
    const doc = base()
    doc.guardrails = ["Always be careful.", { must: "a", never: "b" }, {}]
    const r = validate(doc)
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([
      ["invalid_type", "guardrails.0"],
      ["invalid_value", "guardrails.1"],
      ["missing_field", "guardrails.2.must"]
    ])
    expect(r.issues[1].message).toContain("split it in two")
  })

  it("invalid_value: ids, source references, names, hashes, line counts, eval types", () => {
    const doc = base()
    doc.steps[0].id = "Bump Version"
    doc.steps[1].from = "RELEASE.md"
    doc.name = "x".repeat(101)
    doc.sources[0].content_hash = "md5:abc"
    doc.sources[0].lines = -1
    doc.evals[0].type = "other"
    const r = validate(doc)
    const byPath = Object.fromEntries(r.issues.filter((i) => i.code === "invalid_value").map((i) => [i.path, i.message]))
    expect(Object.keys(byPath).sort()).toEqual([
      "evals.0.type",
      "name",
      "sources.0.content_hash",
      "sources.0.lines",
      "steps.0.id",
      "steps.1.from"
    ])
    expect(byPath["steps.0.id"]).toContain("`bump-version`")
    expect(byPath["steps.1.from"]).toContain("PATH:START-END")
    expect(byPath["name"]).toContain("101 characters")
    expect(byPath["evals.0.type"]).toContain("`standard` or `scenario`")
  })

  it("reports each schema problem once (no noise from optional fields or unions)", () => {
    const doc = base()
    doc.steps[0].on_failure = "Not An Id"
    doc.guardrails[0].id = "Bad"
    const r = validate(doc)
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([
      ["invalid_value", "steps.0.on_failure"],
      ["invalid_value", "guardrails.0.id"]
    ])
  })
})

describe("the meaning", () => {
  it("duplicate_id: within each section, reported at the later one", () => {
    const doc = base()
    doc.steps[2].id = "bump"
    doc.inputs.push({ id: "repo", description: "again" })
    doc.failure_handling.push({ id: "push-rejected", when: "x", then: "y" })
    doc.evals.push({ ...doc.evals[0] })
    doc.guardrails.push({ id: "tests-first", never: "Skip the changelog." })
    const r = validate(doc)
    expect(r.issues.filter((i) => i.code === "duplicate_id").map((i) => i.path).sort()).toEqual([
      "evals.1.id",
      "failure_handling.1.id",
      "guardrails.2.id",
      "inputs.2.id",
      "steps.2.id"
    ])
    expect(find(r, "duplicate_id").message).toMatch(/already used by/)
  })

  it("ambiguous_id: an input and an output share an id", () => {
    const doc = base()
    doc.outputs[1].id = "repo"
    doc.steps[1].produces = ["repo"]
    doc.steps[2].uses = ["repo"]
    const r = validate(doc)
    expect(find(r, "ambiguous_id")).toMatchObject({ path: "outputs.1.id", severity: "error" })
  })

  it("undefined_reference: uses, produces, on_failure, resume_at, {{placeholders}}", () => {
    const doc = base()
    doc.steps[0].uses = ["repo", "versoin"]
    doc.steps[1].produces = ["tag", "nothing-here"]
    doc.steps[1].on_failure = "push-rejectd"
    doc.failure_handling[0].resume_at = "tagg"
    doc.steps[2].action = "Publish {{tag}} with {{token}}; GitHub writes ${{ secrets.NPM }}."
    const r = validate(doc)
    const refs = r.issues.filter((i) => i.code === "undefined_reference")
    expect(refs.map((i) => i.path)).toEqual([
      "steps.0.uses.1",
      "steps.1.produces.1",
      "steps.1.on_failure",
      "steps.2.action",
      "failure_handling.0.resume_at"
    ])
    expect(refs[0].message).toContain("did you mean `version`?")
    expect(refs[2].message).toContain("did you mean `push-rejected`?")
    expect(refs[3].message).toContain("{{token}}")
    expect(refs[4].message).toContain("did you mean `tag`?")
  })

  it("used_before_produced: a step uses an output a later (or the same) step produces", () => {
    const doc = base()
    doc.steps[0].uses = ["repo", "version", "tag"]
    doc.steps[1].uses = ["bumped", "tag"]
    const r = validate(doc)
    const issues = r.issues.filter((i) => i.code === "used_before_produced")
    expect(issues.map((i) => [i.path, i.severity])).toEqual([
      ["steps.0.uses.2", "warning"],
      ["steps.1.uses.1", "warning"]
    ])
    expect(issues[0].message).toContain("later step")
    expect(issues[1].message).toContain("only this step produces")
    expect(r.valid).toBe(true)
  })

  it("no_steps, empty_step, missing_check, check_restates_action", () => {
    expect(find(validate({ ...base(), steps: [], outputs: [] }), "no_steps")).toMatchObject({ path: "steps", severity: "error" })
    const doc = base()
    doc.steps[0].action = "  \n "
    doc.steps[1].check = ""
    doc.steps[2].check = "  run `NPM publish`. "
    doc.steps[2].action = "Run `npm   publish`."
    const r = validate(doc)
    expect(find(r, "empty_step")).toMatchObject({ path: "steps.0.action", severity: "error" })
    expect(find(r, "missing_check")).toMatchObject({ path: "steps.1.check", severity: "error" })
    expect(find(r, "check_restates_action")).toMatchObject({ path: "steps.2.check", severity: "warning" })
  })

  it("unproduced_output and unused_input", () => {
    const doc = base()
    doc.steps[1].produces = []
    doc.steps[2].uses = []
    doc.inputs.push({ id: "token", description: "An npm token." })
    const r = validate(doc)
    expect(find(r, "unproduced_output")).toMatchObject({ path: "outputs.1", severity: "error" })
    expect(find(r, "unused_input")).toMatchObject({ path: "inputs.2", severity: "warning" })
  })

  it("an input named only as a {{placeholder}} counts as used", () => {
    const doc = base()
    doc.steps[0].uses = ["version"]
    doc.steps[0].action = "In {{repo}}, set the version to {{version}}."
    expect(validate(doc).issues).toEqual([])
  })

  it("no_failure_handling and no_guardrails are warnings", () => {
    const doc = base()
    doc.failure_handling = []
    delete doc.steps[1].on_failure
    delete doc.guardrails
    const r = validate(doc)
    expect(r.issues.map((i) => [i.code, i.severity]).sort()).toEqual([
      ["no_failure_handling", "warning"],
      ["no_guardrails", "warning"]
    ])
    expect(r.valid).toBe(true)
  })

  it("contradictory_guardrails: a must and a never about the same thing, at the later one", () => {
    const doc = base()
    doc.guardrails.push({ never: "**Never** run the test-suite before tagging!" })
    const text = renderFlow(doc)
    const r = validateText(text)
    expect(r.issues).toEqual([
      expect.objectContaining({ code: "contradictory_guardrails", path: "guardrails.2.never", line: lineOf(text, "**Never**") })
    ])
    expect(r.issues[0].message).toContain("guardrails.0")
  })

  it("contradictory_guardrails: not for the same rule said the other way round, nor for different things", () => {
    const doc = base()
    doc.guardrails = [
      { must: "Run the tests before pushing." },
      { never: "Push before running the tests." },
      { must: "Keep the changelog up to date." },
      { never: "Delete release branches." }
    ]
    expect(validate(doc).issues).toEqual([])
  })

  it("duplicate_guardrail: the same rule twice, also a `must` written as a prohibition", () => {
    const doc = base()
    doc.guardrails.push({ never: "never force push to the main branch" })
    doc.guardrails.push({ must: "Do not force-push to main branch." })
    const r = validate(doc)
    expect(r.issues.map((i) => [i.code, i.path, i.severity])).toEqual([
      ["duplicate_guardrail", "guardrails.2.never", "warning"],
      ["duplicate_guardrail", "guardrails.3.must", "warning"],
      ["duplicate_guardrail", "guardrails.3.must", "warning"]
    ])
  })

  it("guardrail gist and similarity", () => {
    expect(guardrailGist("Always **run** the tests!").words).toEqual(["run", "test"])
    expect(guardrailGist("Don't push").negated).toBe(true)
    expect(guardrailGist("You must not push").negated).toBe(true)
    expect(guardrailGist("Use no more than three retries").negated).toBe(false)
    const a = guardrailGist("Run the tests before pushing")
    const b = guardrailGist("Push before running the tests")
    expect(guardrailSimilarity(a, b)).toBeLessThan(0.8)
    expect(guardrailSimilarity(a, guardrailGist("never run tests before you push"))).toBe(1)
  })

  it("empty_text: required text that says nothing", () => {
    const doc = base()
    doc.description = "   "
    doc.steps[0].title = ""
    doc.failure_handling[0].then = "\n"
    doc.guardrails[1].never = " "
    const r = validate(doc)
    expect(r.issues.filter((i) => i.code === "empty_text").map((i) => i.path)).toEqual([
      "description",
      "steps.0.title",
      "guardrails.1.never",
      "failure_handling.0.then"
    ])
  })

  it("does not repeat a schema problem as a meaning problem", () => {
    const r = validate({ ...base(), name: "" })
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([["invalid_value", "name"]])
  })

  it("checks the meaning even when the shape has errors", () => {
    const doc = base()
    doc.steps[0].chek = "x"
    doc.steps[1].uses = ["nope"]
    const r = validate(doc)
    expect(codes(r).sort()).toEqual(["undefined_reference", "unknown_field"])
    expect(r.flow).toBeNull()
  })
})

describe("source mapping", () => {
  it("unknown_source (sources listed) and undeclared_source (none listed)", () => {
    const doc = base()
    doc.steps[0].from = "RELEASES.md:5-9"
    const r = validate(doc)
    expect(find(r, "unknown_source")).toMatchObject({ path: "steps.0.from", severity: "error" })
    expect(find(r, "unknown_source").message).toContain("did you mean `RELEASE.md`?")

    const none = base()
    delete none.sources
    const r2 = validate(none)
    expect(new Set(codes(r2))).toEqual(new Set(["undeclared_source"]))
    expect(r2.issues.every((i) => i.severity === "warning")).toBe(true)
    expect(r2.issues.length).toBe(8)
  })

  it("source_range_outside: past the end of the source, or backwards", () => {
    const doc = base()
    doc.steps[2].from = "RELEASE.md:21-41"
    doc.outputs[0].from = "RELEASE.md:9-5"
    const r = validate(doc)
    expect(r.issues.filter((i) => i.code === "source_range_outside").map((i) => i.path)).toEqual([
      "steps.2.from",
      "outputs.0.from"
    ])
    expect(validate({ ...base(), sources: [{ path: "RELEASE.md", lines: 30 }] }).issues.map((i) => [i.code, i.path])).toEqual([
      ["source_range_outside", "guardrails.0.from"]
    ])
  })

  it("the identity's `from` (at the root) is checked like every block's", () => {
    expect(validate({ ...base(), from: "RELEASE.md:1-5" }).valid).toBe(true)
    const outside = find(validate({ ...base(), from: "RELEASE.md:1-99" }), "source_range_outside")
    expect(outside).toMatchObject({ path: "from", severity: "error" })
    expect(outside!.message).toContain("identity")
    expect(find(validate({ ...base(), from: "OTHER.md:1-3" }), "unknown_source")).toMatchObject({ path: "from" })
    expect(find(validate({ ...base(), from: "not a ref" }), "invalid_value")).toMatchObject({ path: "from" })
  })

  it("duplicate_source: a path listed twice", () => {
    const doc = base()
    doc.sources.push({ path: "RELEASE.md", lines: 40 })
    expect(find(validate(doc), "duplicate_source")).toMatchObject({ path: "sources.1.path" })
  })

  it("missing_source_mapping: a step without `from` when sources are listed", () => {
    const doc = base()
    delete doc.steps[1].from
    expect(validate(doc).issues).toEqual([expect.objectContaining({ code: "missing_source_mapping", path: "steps.1", severity: "warning" })])
  })

  it("source_lines_mismatch and source_hash_mismatch against the real sources", () => {
    const content = `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n")}\n`
    const hash = `sha256:${createHash("sha256").update(content).digest("hex")}`
    const doc = base()
    doc.sources[0].content_hash = hash

    expect(validate(doc, { sources: [{ path: "RELEASE.md", content }] }).issues).toEqual([])
    expect(validate(doc, { sources: [{ path: "RELEASE.md", lines: 40, contentHash: hash }] }).issues).toEqual([])
    expect(validate(doc, { sources: [{ path: "OTHER.md", content: "x" }] }).issues).toEqual([])

    const changed = validate(doc, { sources: [{ path: "RELEASE.md", content: `${content}one more\n` }] })
    expect(changed.issues.map((i) => [i.code, i.path, i.severity])).toEqual([
      ["source_hash_mismatch", "sources.0.content_hash", "warning"],
      ["source_lines_mismatch", "sources.0.lines", "error"]
    ])
    expect(find(changed, "source_lines_mismatch").message).toContain("has 41 lines")
  })

  it("lineCount counts lines as an editor shows them", () => {
    expect(lineCount("")).toBe(0)
    expect(lineCount("a")).toBe(1)
    expect(lineCount("a\n")).toBe(1)
    expect(lineCount("\n")).toBe(1)
    expect(lineCount("a\nb")).toBe(2)
    expect(lineCount("a\n\n")).toBe(2)
    expect(lineCount("a\r\nb\r\n")).toBe(2)
    expect(lineCount("a\rb")).toBe(2)
  })
})

describe("results", () => {
  it("are sorted by line, then path, then code, and the same every time", () => {
    const doc = base()
    doc.steps[0].chek = "x"
    doc.steps[0].uses = ["nope", "nada"]
    doc.steps[2].produces = ["ghost"]
    doc.guardrails.push({ never: "Run the test suite before tagging." })
    doc.zzz = 1
    const text = renderFlow(doc)
    const first = validateText(text)
    expect(first.issues.length).toBeGreaterThan(4)
    for (let i = 0; i < 3; i++) expect(validateText(text)).toEqual(first)
    const sorted = [...first.issues].sort((a, b) => a.line - b.line || a.path.localeCompare(b.path) || a.code.localeCompare(b.code))
    expect(first.issues.map((i) => `${i.line} ${i.path} ${i.code}`)).toEqual(sorted.map((i) => `${i.line} ${i.path} ${i.code}`))
    for (const issue of first.issues) {
      expect(issue.line).toBeGreaterThanOrEqual(1)
      expect(issue.message.length).toBeGreaterThan(10)
    }
  })

  it("too_many_issues: the list is capped", () => {
    const doc = base()
    doc.steps[0].uses = Array.from({ length: MAX_ISSUES + 50 }, (_, i) => `missing-${i}`)
    const r = validate(doc)
    expect(r.issues.length).toBe(MAX_ISSUES)
    expect(find(r, "too_many_issues").severity).toBe("error")
    expect(r.valid).toBe(false)
  })

  it("lines are 1-based lines of the given text", () => {
    const doc = base()
    doc.steps[2].uses = ["tag", "nope"]
    const text = `# header\n\n${renderFlow(doc)}`
    const r = validateText(text)
    expect(find(r, "undefined_reference").line).toBe(lineOf(text, "uses: [tag, nope]"))
  })
})
