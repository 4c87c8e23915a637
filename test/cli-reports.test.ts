/**
 * The CLI's JUnit and SARIF renderings: JUnit parsed back with fast-xml-parser, SARIF checked against
 * the OASIS SARIF 2.1.0 schema with ajv; escaping, levels, rule indices, URIs and fingerprints.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { describe, expect, it } from "vitest"
import { checkJunit, validateJunit } from "../src/cli/reports/Junit.js"
import { auditText, checkText } from "../src/cli/reports/Text.js"
import { colors } from "../src/cli/Output.js"
import { type CheckFinding, type CheckReport, failsAt, type FailOn, type ValidateReport } from "../src/cli/reports/Model.js"
import { sarifSchemaErrors } from "./support/Sarif.js"
import { artifactUri, checkSarif, FINGERPRINT_KEY, pascalCase, type SarifLog, validateSarif } from "../src/cli/reports/Sarif.js"

// ---------------------------------------------------------------------------------------------
// fixtures

const GUIDES = "https://rubr.example.com/guides"
const tool = { name: "rubr", version: "0.1.0", informationUri: GUIDES }
const SKILL = "skills/deploy kit/SKILL.md"
const STYLE = "skills/deploy kit/reference/style guide.md"
const AWKWARD = `Step 3 says "run <deploy> & pray" — it's missing a rollback ]]> 🚀\u0007\nsecond line`
const LONG = `Examples show only the happy path; ${"add a failing deploy, a partial rollout and a timeout ".repeat(4)}🙂`

type Draft = Omit<CheckFinding, "failing">
const drafts: ReadonlyArray<Draft> = [
  { id: "f-1", ruleId: "SK-FAIL-MISSING", ruleName: "Error handling", severity: "critical", bundlePath: "SKILL.md", path: SKILL, lineStart: 14, lineEnd: 18, message: AWKWARD, suggestion: "Add a rollback step:\n- revert the release\n- tell #ops <now>" },
  { id: "f-2", ruleId: "SK-DESC-NO-TRIGGER", ruleName: null, severity: "major", bundlePath: "SKILL.md", path: SKILL, lineStart: 2, lineEnd: 2, message: "The description says what the skill does but not when to use it.", suggestion: "" },
  { id: "f-3", ruleId: "SK-FM-UNKNOWN-KEY", ruleName: "Frontmatter", severity: "minor", bundlePath: "SKILL.md", path: SKILL, lineStart: 0, lineEnd: 0, message: "The frontmatter has no `license` key.", suggestion: "Add `license: MIT`." },
  { id: "f-4", ruleId: "SK-EX-NO-LANGUAGE", ruleName: "Examples", severity: "minor", bundlePath: "reference/style guide.md", path: STYLE, lineStart: 7, lineEnd: 5, message: "A code block has no language tag.", suggestion: "Write ```bash." },
  { id: "f-5", ruleId: "SK-EX-NO-LANGUAGE", ruleName: "Examples", severity: "minor", bundlePath: "reference/style guide.md", path: STYLE, lineStart: 30, lineEnd: 34, message: "A code block has no language tag.", suggestion: "Write ```bash." },
  { id: "f-6", ruleId: "SK-EX-MISSING", ruleName: "Examples", severity: "info", bundlePath: "SKILL.md", path: SKILL, lineStart: 40, lineEnd: 41, message: LONG, suggestion: "Add one example that fails." },
  { id: "f-7", ruleId: "SK-AI-CUSTOM-RULE", ruleName: "Custom rule", severity: "info", bundlePath: "SKILL.md", path: SKILL, lineStart: 50, lineEnd: 50, message: "Team rule: mention the on-call rota.", suggestion: "" }
]

const checkReport = (failOn: FailOn = "major", overrides: Partial<CheckReport> = {}): CheckReport => ({
  tool,
  target: "skills/deploy kit",
  bundle: { id: "bnd_1", name: "deploy-kit" },
  sync: { uploaded: 1, updated: 1, unchanged: 3, removed: 0, skipped: 0 },
  audit: {
    id: "aud_42",
    overallScore: 72,
    rubricKey: "skill-quality",
    rubricVersion: "2026-11-01",
    rubricTitle: "Skill quality",
    scores: [
      { key: "frontmatter", label: "Frontmatter", score: 90 },
      { key: "description", label: "Description", score: 55 },
      { key: "error_handling", label: "Error handling", score: 40 },
      { key: "formatting", label: "Formatting", score: 80 },
      { key: "examples", label: "Examples", score: 70 }
    ],
    fresh: true
  },
  eval: {
    evalRunId: "evr_7",
    baseline: "v1",
    sourceFileVersionId: "fv_1",
    candidateFileVersionId: "fv_2",
    scenarioCount: 4,
    sourcePassCount: 3,
    candidatePassCount: 2,
    improvedCount: 1,
    regressedCount: 1,
    unchangedCount: 2,
    scoreDelta: -0.125,
    regressedCases: [{ caseId: "case_3", name: `rollback on <failure> & "retry"`, scoreDelta: -0.5 }]
  },
  gates: [
    { name: "min-score", passed: true, message: "score 72 ≥ 70" },
    { name: "fail-on", passed: false, message: `2 findings at or above "major": 1 critical, 1 major <see below> & fix` },
    { name: "no-regression", passed: false, message: "1 case regressed against v1: case_3" }
  ],
  findings: drafts.map((d) => ({ ...d, failing: failsAt(d.severity, failOn) })),
  minScore: 70,
  failOn,
  passed: false,
  guidesUrl: GUIDES,
  durationMs: 1234,
  ...overrides
})

const validateReport: ValidateReport = {
  tool,
  guidesUrl: GUIDES,
  passed: false,
  files: [
    {
      file: "flows/deploy flow.yaml",
      valid: false,
      issues: [
        { code: "unknown_field", severity: "error", message: `Unknown key "chek" in step "tag"; did you mean "check"? <a & b>`, line: 12, path: "steps.2.chek" },
        { code: "used_before_produced", severity: "warning", message: "Step #4 uses \"build_id\" before step #5 produces it.", line: 20, path: "steps.3.uses" }
      ]
    },
    { file: "flows/big.yaml", valid: false, issues: [{ code: "too_large", severity: "error", message: "The text is longer than 1 MiB.", line: null, path: "" }] },
    { file: "flows/ok.yaml", valid: true, issues: [] },
    { file: "flows/warn.yaml", valid: true, issues: [{ code: "no_guardrails", severity: "warning", message: "The flow has no guardrails.", line: 1, path: "" }] }
  ]
}

// ---------------------------------------------------------------------------------------------
// JUnit helpers

// the XML 1.0 `Char` production, written out code point by code point
const isXmlChar = (cp: number) =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
const illegalChars = (s: string) => Array.from(s).filter((c) => !isXmlChar(c.codePointAt(0)!))

const asArray = <A>(x: A | ReadonlyArray<A> | undefined): ReadonlyArray<A> => (x === undefined ? [] : Array.isArray(x) ? x : [x as A])

interface Case {
  "@_classname": string
  "@_name": string
  "@_file"?: string
  "@_line"?: string
  failure?: { "#text"?: string; "@_message": string; "@_type": string }
  "system-out"?: string
}
interface Suite {
  "@_name": string
  "@_tests": string
  "@_failures": string
  "@_time": string
  properties?: { property: { "@_name": string; "@_value": string } | ReadonlyArray<{ "@_name": string; "@_value": string }> }
  testcase: Case | ReadonlyArray<Case>
}

const parseJunit = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true)
  // fast-xml-parser's validator lets control characters and `]]>` through, so check them here
  expect(illegalChars(xml)).toEqual([])
  expect(xml).not.toContain("]]>")
  const doc = new XMLParser({ ignoreAttributes: false, htmlEntities: true, parseAttributeValue: false, parseTagValue: false, trimValues: false }).parse(xml)
  const root = doc.testsuites
  return { root: root as Record<string, string>, suites: asArray<Suite>(root.testsuite) }
}
const casesOf = (s: Suite) => asArray(s.testcase)
const propertiesOf = (s: Suite) => new Map(asArray(s.properties?.property).map((p) => [p["@_name"], p["@_value"]]))
const clean = (s: string) => s.replace(/\u0007/g, "")

// ---------------------------------------------------------------------------------------------
// SARIF helpers

// round-tripped through JSON, as the CLI prints it
const sarifOf = (log: SarifLog) => {
  const json = JSON.parse(JSON.stringify(log))
  expect(sarifSchemaErrors(json)).toEqual([])
  return json as SarifLog
}

// ---------------------------------------------------------------------------------------------

describe("checkText", () => {
  it("says beside a criterion below 100 why, when no finding names it; a criterion with findings has them below", () => {
    const report = checkReport("major", {
      audit: {
        ...checkReport().audit,
        scores: [
          { key: "constraints", label: "Constraints and boundaries", score: 97, rationale: "-3 short: no section gathers the rules; 5 rule line(s), 0 rules section(s)" },
          { key: "error_handling", label: "Error handling", score: 40, rationale: "-60 no failure handling" },
          { key: "name", label: "Name", score: 100, rationale: "name 'deploy-kit' is kebab-case" }
        ]
      }
    })
    const lines = checkText(report, colors(false)).split("\n")
    expect(lines.find((l) => l.includes("Constraints and boundaries"))).toMatch(/97 {2}Constraints and boundaries {2}-3 short: no section gathers the rules$/)
    // the findings on error handling (ruleName "Error handling") say why; a full score says nothing
    expect(lines.find((l) => l.includes(" Error handling"))).toMatch(/40 {2}Error handling$/)
    expect(lines.find((l) => l.includes(" Name"))).toMatch(/100 {2}Name$/)
  })
  it("rubr audits show says the same beside its bars, by criterion key", () => {
    const text = auditText({
      id: "aud_42", status: "completed", overallScore: 96.2, rubricKey: "skill", rubricVersion: "2026-11-28",
      scores: [
        { key: "verification", label: "Verification", score: 90, rationale: "-10 short: nothing says how to check the result; no verification step" },
        { key: "error_handling", label: "Failure handling", score: 30, rationale: "-70 no failure handling" },
        { key: "structure", label: "Structure and headings", score: 92.5, rationale: "-7.5 short: 75 lines of text under 2 section heading(s), 37.5 a section (more than 15)" }
      ],
      findings: [{ severity: "major", criterionKey: "error_handling", filePath: "SKILL.md", lineStart: 6, message: "Nothing says what to do when a step fails" }],
      improvedVersion: null, improvedFiles: [], appliedAt: null
    }, colors(false))
    expect(text).toContain(" 90  Verification  -10 short: nothing says how to check the result\n")
    expect(text).toMatch(/ 30 {2}Failure handling\n/)
    // a score as scored, to its tenth, so it and what it lost add up to 100; the scores stay in one column
    expect(text).toContain(" 92.5  Structure and headings  -7.5 short: 75 lines of text under 2 section heading(s)")
    const column = (label: string) => text.split("\n").find((l) => l.includes(label))!.indexOf(label)
    expect(column("Structure and headings")).toBe(column("Verification"))
  })
})

describe("checkJunit", () => {
  const report = checkReport()
  const xml = checkJunit(report)
  const { root, suites } = parseJunit(xml)
  const suite = suites[0]
  const cases = casesOf(suite)
  const findingCases = cases.filter((c) => c["@_classname"].startsWith("rubr.findings."))

  it("is one document with an XML declaration, a testsuites root and one suite", () => {
    expect(xml.split("\n")[0]).toBe(`<?xml version="1.0" encoding="UTF-8"?>`)
    expect(root["@_name"]).toBe("rubr")
    expect(suites).toHaveLength(1)
    expect(suite["@_name"]).toBe("rubr check skills/deploy kit")
  })

  it("counts gates and findings as tests, failed gates and failing findings as failures", () => {
    const failing = report.findings.filter((f) => f.failing).length
    expect(failing).toBe(2)
    expect(cases).toHaveLength(3 + 7)
    expect(root["@_tests"]).toBe("10")
    expect(root["@_failures"]).toBe(String(2 + failing))
    expect(root["@_errors"]).toBe("0")
    expect(suite["@_tests"]).toBe("10")
    expect(suite["@_failures"]).toBe("4")
    expect(cases.filter((c) => c.failure)).toHaveLength(4)
  })

  it("writes time in seconds with three decimals", () => {
    expect(root["@_time"]).toBe("1.234")
    expect(suite["@_time"]).toBe("1.234")
    const other = parseJunit(checkJunit(checkReport("major", { durationMs: 5 })))
    expect(other.root["@_time"]).toBe("0.005")
  })

  it("makes a testcase per gate, failing only the failed ones", () => {
    const gates = cases.filter((c) => c["@_classname"] === "rubr.gates")
    expect(gates.map((g) => g["@_name"])).toEqual(["min-score", "fail-on", "no-regression"])
    expect(gates[0].failure).toBeUndefined()
    expect(gates[0]["system-out"]).toBe("score 72 ≥ 70")
    expect(gates[1].failure?.["@_type"]).toBe("gate")
    expect(gates[1].failure?.["@_message"]).toBe(report.gates[1].message)
    expect(gates[2].failure?.["@_message"]).toBe("1 case regressed against v1: case_3")
  })

  it("makes a testcase per finding with its rule, file and line; failing findings are failures", () => {
    expect(findingCases).toHaveLength(report.findings.length)
    report.findings.forEach((f, i) => {
      const c = findingCases[i]
      expect(c["@_classname"]).toBe(`rubr.findings.${f.ruleId}`)
      expect(c["@_file"]).toBe(f.path)
      expect(c["@_line"]).toBe(String(f.lineStart))
      expect(c["@_name"].startsWith(`[${f.severity}] ${f.path}:${f.lineStart} `)).toBe(true)
      if (f.failing) {
        expect(c.failure?.["@_type"]).toBe(f.severity)
        expect(c["system-out"]).toBeUndefined()
      } else {
        expect(c.failure).toBeUndefined()
        expect(c["system-out"]).toContain(f.message)
      }
    })
    expect(findingCases.filter((c) => c.failure).map((c) => c["@_classname"])).toEqual(["rubr.findings.SK-FAIL-MISSING", "rubr.findings.SK-DESC-NO-TRIGGER"])
  })

  it("puts the message, the suggestion and the location in a failure, the message and suggestion in system-out", () => {
    const critical = findingCases[0].failure!
    expect(critical["#text"]).toContain(clean(AWKWARD))
    expect(critical["#text"]).toContain(`Suggestion: ${report.findings[0].suggestion}`)
    expect(critical["#text"]).toContain(`Location: ${SKILL}:14-18`)
    const minor = findingCases[2]["system-out"]!
    expect(minor).toContain("The frontmatter has no `license` key.")
    expect(minor).toContain("Suggestion: Add `license: MIT`.")
    // no suggestion, no empty "Suggestion:" line
    expect(findingCases[1].failure!["#text"]).not.toContain("Suggestion:")
  })

  it("round-trips awkward text: <, &, quotes, ]]>, emoji, newlines; drops the control character", () => {
    const critical = findingCases[0]
    expect(critical.failure!["@_message"]).toBe(clean(AWKWARD).replace(/\s+/g, " "))
    expect(critical["@_name"]).toContain(`"run <deploy> & pray"`)
    expect(critical["@_name"]).toContain("]]> 🚀 second line")
    expect(xml).not.toContain("\u0007")
    expect(xml).toContain("&lt;deploy&gt; &amp; pray")
  })

  it("truncates long messages in testcase names by code point, keeping the whole message in the body", () => {
    const info = findingCases[5]
    const title = info["@_name"].slice(`[info] ${SKILL}:40 `.length)
    expect(Array.from(title)).toHaveLength(120)
    expect(title.endsWith("…")).toBe(true)
    expect(LONG.startsWith(title.slice(0, -1))).toBe(true)
    expect(info["system-out"]).toContain(LONG)
    // an emoji across the cut stays whole
    const f = { ...report.findings[5], message: `${"x".repeat(118)}🚀🚀🚀` }
    const name = casesOf(parseJunit(checkJunit({ ...report, findings: [f] })).suites[0])[3]["@_name"]
    expect(name).toBe(`[info] ${SKILL}:40 ${"x".repeat(118)}🚀…`)
  })

  it("adds the audit and eval as suite properties when there is an eval, none otherwise", () => {
    const props = propertiesOf(suite)
    expect(props.get("audit.id")).toBe("aud_42")
    expect(props.get("audit.overallScore")).toBe("72")
    expect(props.get("eval.runId")).toBe("evr_7")
    expect(props.get("eval.regressedCount")).toBe("1")
    expect(props.get("eval.scoreDelta")).toBe("-0.125")
    expect(props.get("eval.regressedCases")).toBe(`case_3 rollback on <failure> & "retry" (-0.5)`)
    const noEval = parseJunit(checkJunit(checkReport("major", { eval: null }))).suites[0]
    expect(noEval.properties).toBeUndefined()
  })

  it("strips every character XML 1.0 forbids, in text and attributes", () => {
    const nasty = "a\u0000b\u0008c\u000Bd\u001Be\uD800f\uDFFFg\uFFFEh\uFFFFi\u0085j\t\r\n😀"
    const f: CheckFinding = { ...report.findings[0], message: nasty, suggestion: nasty, ruleId: "x\u0001y" }
    const out = checkJunit({ ...report, target: `t\u0002`, findings: [f] })
    const parsed = parseJunit(out)
    const c = casesOf(parsed.suites[0]).find((x) => x["@_classname"] !== "rubr.gates")!
    expect(c["@_classname"]).toBe("rubr.findings.xy")
    expect(c.failure!["#text"]).toContain("abcdefghi\u0085j\t\r\n😀")
  })

  it("keeps line breaks as references in attributes, so parsers do not fold them, and CR in text", () => {
    const e = { ...report.eval!, regressedCases: [{ caseId: "c\n1", name: "two\rthree\tfour", scoreDelta: -1 }] }
    const out = checkJunit({ ...report, eval: e, gates: [{ name: "fail-on", passed: false, message: "one\ntwo\rthree" }], findings: [] })
    expect(out).toContain(`value="c&#10;1 two&#13;three&#9;four (-1)"`)
    expect(out).toContain(`message="one two three"`)
    expect(out).toContain("one\ntwo&#13;three</failure>")
    const parsed = parseJunit(out).suites[0]
    expect(propertiesOf(parsed).get("eval.regressedCases")).toBe("c\n1 two\rthree\tfour (-1)")
    expect(casesOf(parsed)[0].failure!["#text"]).toBe("one\ntwo\rthree")
  })
})

describe("validateJunit", () => {
  const xml = validateJunit(validateReport)
  const { root, suites } = parseJunit(xml)

  it("makes one suite per file and counts errors as failures", () => {
    expect(suites.map((s) => s["@_name"])).toEqual(validateReport.files.map((f) => f.file))
    expect(root["@_tests"]).toBe("5")
    expect(root["@_failures"]).toBe("2")
    expect(root["@_time"]).toBe("0.000")
    expect(suites.map((s) => s["@_failures"])).toEqual(["1", "1", "0", "0"])
  })

  it("fails errors, passes warnings with system-out, and gives a clean file one `valid` testcase", () => {
    const [deploy, big, ok, warn] = suites.map(casesOf)
    expect(deploy[0]["@_classname"]).toBe("rubr.flow.unknown_field")
    expect(deploy[0].failure?.["@_message"]).toBe(validateReport.files[0].issues[0].message)
    expect(deploy[0].failure?.["#text"]).toContain("Path: steps.2.chek")
    expect(deploy[0]["@_line"]).toBe("12")
    expect(deploy[0]["@_file"]).toBe("flows/deploy flow.yaml")
    expect(deploy[1].failure).toBeUndefined()
    expect(deploy[1]["system-out"]).toContain(`uses "build_id" before`)
    expect(big[0].failure?.["@_type"]).toBe("error")
    expect(big[0]["@_line"]).toBeUndefined()
    expect(ok).toHaveLength(1)
    expect(ok[0]["@_name"]).toBe("valid")
    expect(ok[0].failure).toBeUndefined()
    expect(warn[0].failure).toBeUndefined()
    expect(warn[0]["@_name"]).toBe("[warning] flows/warn.yaml:1 The flow has no guardrails.")
  })

  it("renders no files as an empty testsuites root", () => {
    const { root: empty, suites: none } = parseJunit(validateJunit({ ...validateReport, files: [] }))
    expect(none).toEqual([])
    expect(empty["@_tests"]).toBe("0")
  })
})

describe("checkSarif", () => {
  const report = checkReport()
  const log = sarifOf(checkSarif(report))
  const run = log.runs[0]
  const { rules } = run.tool.driver
  const byFinding = new Map(run.results.map((r) => [r.properties.findingId as string, r]))

  it("is SARIF 2.1.0 with the tool's driver", () => {
    expect(log.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json")
    expect(log.version).toBe("2.1.0")
    expect(log.runs).toHaveLength(1)
    expect(run.tool.driver).toMatchObject({ name: "rubr", version: "0.1.0", semanticVersion: "0.1.0", informationUri: GUIDES })
  })

  it("has one rule per rule id of the findings, in id order, documented under its own anchor", () => {
    expect(rules.map((r) => r.id)).toEqual(["SK-AI-CUSTOM-RULE", "SK-DESC-NO-TRIGGER", "SK-EX-MISSING", "SK-EX-NO-LANGUAGE", "SK-FAIL-MISSING", "SK-FM-UNKNOWN-KEY"])
    const fail = rules.find((r) => r.id === "SK-FAIL-MISSING")!
    expect(fail.name).toBe("SkFailMissing")
    // a catalogue rule: its title, its criterion, the rubric, and the fix
    expect(fail.shortDescription.text).toBe("Nothing says what to do on failure")
    expect(fail.fullDescription.text).toContain("Error handling, Skill quality rubric skill-quality@2026-11-01")
    expect(fail.fullDescription.text).toContain("Fix: Say when to retry, stop and ask, or roll back.")
    expect(fail.defaultConfiguration.level).toBe("error")
    expect(fail.helpUri).toBe(`${GUIDES}/rubrics#sk-fail-missing`)
    expect(fail.help.markdown).toContain(`(${GUIDES}/rubrics#sk-fail-missing)`)
    expect(fail.properties.tags).toEqual(["rubr", "skill-quality", "error_handling"])
    // an id outside the catalogue (a real provider's finding): named by its criterion, a warning by default
    const ai = rules.find((r) => r.id === "SK-AI-CUSTOM-RULE")!
    expect(ai.shortDescription.text).toBe("Custom rule")
    expect(ai.defaultConfiguration.level).toBe("warning")
    expect(ai.properties.tags).toEqual(["rubr", "skill-quality"])
    // whatever the findings' order
    const extra = (ruleId: string): CheckFinding => ({ ...report.findings[6], ruleId, ruleName: null })
    const more = checkSarif(checkReport("major", { findings: [extra("SK-ZETA"), extra("SK-ALPHA"), extra("SK-ZETA")] }))
    expect(more.runs[0].tool.driver.rules.map((r) => r.id)).toEqual(["SK-ALPHA", "SK-ZETA"])
    expect(more.runs[0].tool.driver.rules[0].shortDescription.text).toBe("SK-ALPHA")
  })

  it("points each result's ruleIndex at its rule", () => {
    expect(run.results).toHaveLength(report.findings.length)
    for (const r of run.results) expect(rules[r.ruleIndex].id).toBe(r.ruleId)
    expect(byFinding.get("f-7")!.ruleIndex).toBe(0)
    expect(byFinding.get("f-4")!.ruleIndex).toBe(byFinding.get("f-5")!.ruleIndex)
  })

  it("maps severities to levels and never makes a non-failing finding an error", () => {
    expect([...byFinding].map(([id, r]) => [id, r.level])).toEqual([
      ["f-1", "error"], ["f-2", "error"], ["f-3", "warning"], ["f-4", "warning"], ["f-5", "warning"], ["f-6", "note"], ["f-7", "note"]
    ])
    const lenient = checkSarif(checkReport("critical")).runs[0].results
    expect(lenient.map((r) => r.level)).toEqual(["error", "warning", "warning", "warning", "warning", "note", "note"])
    const none = checkSarif(checkReport("none")).runs[0].results
    expect(none[0].level).toBe("warning")
  })

  it("writes the message with the suggestion, and the severity and finding id as properties", () => {
    expect(byFinding.get("f-1")!.message.text).toBe(`${AWKWARD} Suggestion: ${report.findings[0].suggestion}`)
    expect(byFinding.get("f-2")!.message.text).toBe(report.findings[1].message)
    expect(byFinding.get("f-3")!.properties).toMatchObject({ severity: "minor", findingId: "f-3" })
  })

  it("locates results with relative, percent-encoded uris and clamped regions", () => {
    const loc = (id: string) => byFinding.get(id)!.locations[0].physicalLocation
    expect(loc("f-1").artifactLocation).toEqual({ uri: "skills/deploy%20kit/SKILL.md", uriBaseId: "%SRCROOT%" })
    expect(loc("f-1").region).toEqual({ startLine: 14, endLine: 18 })
    expect(loc("f-3").region).toEqual({ startLine: 1, endLine: 1 })
    expect(loc("f-4").artifactLocation.uri).toBe("skills/deploy%20kit/reference/style%20guide.md")
    expect(loc("f-4").region).toEqual({ startLine: 7, endLine: 7 })
    for (const r of run.results) {
      const uri = r.locations[0].physicalLocation.artifactLocation.uri
      expect(uri).not.toMatch(/^\/|^[a-z][a-z0-9+.-]*:|\\| /i)
      // resolves inside the base, back to the finding's path
      const resolved = new URL(uri, "file:///repo/")
      expect(decodeURIComponent(resolved.pathname)).toBe(`/repo/${report.findings.find((f) => f.id === r.properties.findingId)!.path}`)
    }
  })

  it("encodes paths per segment and never leaves them absolute", () => {
    expect(artifactUri("a b/c#1?.md")).toBe("a%20b/c%231%3F.md")
    expect(artifactUri("./docs/résumé.md")).toBe("docs/r%C3%A9sum%C3%A9.md")
    expect(artifactUri("skills\\win\\SKILL.md")).toBe("skills/win/SKILL.md")
    expect(artifactUri("/abs/SKILL.md")).toBe("abs/SKILL.md")
    expect(artifactUri("C:\\work\\SKILL.md")).toBe("work/SKILL.md")
    expect(artifactUri("c:odd.md")).toBe("c%3Aodd.md")
    expect(pascalCase("error_handling")).toBe("ErrorHandling")
    expect(pascalCase("output-format.v2")).toBe("OutputFormatV2")
  })

  it("gives stable fingerprints that tell findings apart", () => {
    const prints = (l: SarifLog) => l.runs[0].results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])
    const first = prints(log)
    expect(prints(checkSarif(structuredClone(checkReport())))).toEqual(first)
    expect(first.every((p) => /^[0-9a-f]{64}:\d+$/.test(p))).toBe(true)
    expect(new Set(first).size).toBe(first.length)
    // the two identical formatting findings share a hash and differ in their occurrence number
    const [f4, f5] = [first[3], first[4]]
    expect(f4.split(":")[0]).toBe(f5.split(":")[0])
    expect([f4.split(":")[1], f5.split(":")[1]]).toEqual(["1", "2"])
    // the same finding moved to another line keeps its fingerprint; another message changes it
    const moved = checkReport("major", { findings: report.findings.map((f) => (f.id === "f-2" ? { ...f, lineStart: 3, lineEnd: 3 } : f)) })
    expect(prints(checkSarif(moved))[1]).toBe(first[1])
    const reworded = checkReport("major", { findings: report.findings.map((f) => (f.id === "f-2" ? { ...f, message: "Other." } : f)) })
    expect(prints(checkSarif(reworded))[1]).not.toBe(first[1])
  })

  it("describes the run: invocation, automation id, %SRCROOT% without a uri", () => {
    expect(run.invocations).toEqual([{ executionSuccessful: true, properties: expect.objectContaining({ auditId: "aud_42", overallScore: 72, passed: false, evalRunId: "evr_7" }) }])
    expect(run.automationDetails.id).toBe("rubr/check/skills/deploy kit/")
    expect(checkSarif(checkReport("major", { target: "./" })).runs[0].automationDetails.id).toBe("rubr/check/./")
    expect(run.originalUriBaseIds["%SRCROOT%"]).not.toHaveProperty("uri")
  })

  it("is still valid with no findings: no rules, no results", () => {
    const empty = sarifOf(checkSarif(checkReport("major", { findings: [], eval: null, passed: true })))
    expect(empty.runs[0].results).toEqual([])
    expect(empty.runs[0].tool.driver.rules).toEqual([])
    expect(empty.runs[0].invocations[0].properties).not.toHaveProperty("evalRunId")
  })

  it("rejects what the schema forbids (the validator is live)", () => {
    const broken = JSON.parse(JSON.stringify(log))
    broken.runs[0].results[0].level = "fatal"
    delete broken.runs[0].tool.driver.name
    const errors = sarifSchemaErrors(broken)
    expect(errors.length).toBeGreaterThanOrEqual(2)
  })
})

describe("validateSarif", () => {
  const log = sarifOf(validateSarif(validateReport))
  const run = log.runs[0]
  const { rules } = run.tool.driver

  it("has one rule per issue code, linking to the issue codes table", () => {
    expect(rules.map((r) => r.id)).toEqual(["no_guardrails", "too_large", "unknown_field", "used_before_produced"])
    for (const r of rules) {
      expect(r.helpUri).toBe(`${GUIDES}/rubr-flow#issue-codes`)
      expect(r.properties.tags).toEqual(["rubr", "rubr_flow"])
    }
    expect(rules.map((r) => r.defaultConfiguration.level)).toEqual(["warning", "error", "error", "warning"])
    expect(rules[2].name).toBe("UnknownField")
  })

  it("has one result per issue, located in its file", () => {
    expect(run.results.map((r) => [r.ruleId, r.level, r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine])).toEqual([
      ["unknown_field", "error", "flows/deploy%20flow.yaml", 12],
      ["used_before_produced", "warning", "flows/deploy%20flow.yaml", 20],
      ["too_large", "error", "flows/big.yaml", 1],
      ["no_guardrails", "warning", "flows/warn.yaml", 1]
    ])
    for (const r of run.results) expect(rules[r.ruleIndex].id).toBe(r.ruleId)
    expect(run.results[0].message.text).toBe(validateReport.files[0].issues[0].message)
    expect(run.automationDetails.id).toBe("rubr/validate/")
    expect(run.invocations[0]).toEqual({ executionSuccessful: true, properties: { passed: false } })
  })

  it("gives each issue its own stable fingerprint", () => {
    const prints = (l: SarifLog) => l.runs[0].results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])
    const first = prints(log)
    expect(new Set(first).size).toBe(4)
    expect(prints(validateSarif(structuredClone(validateReport)))).toEqual(first)
    // two issues of one code in one file differ by their message
    const twice = validateSarif({ ...validateReport, files: [{ ...validateReport.files[3], issues: [validateReport.files[3].issues[0], { ...validateReport.files[3].issues[0], message: "Other." }] }] })
    expect(prints(twice).map((p) => p.endsWith(":1"))).toEqual([true, true])
  })

  it("is valid SARIF with no issues", () => {
    const clean = sarifOf(validateSarif({ ...validateReport, passed: true, files: [{ file: "flows/ok.yaml", valid: true, issues: [] }] }))
    expect(clean.runs[0].results).toEqual([])
    expect(clean.runs[0].tool.driver.rules).toEqual([])
  })
})
