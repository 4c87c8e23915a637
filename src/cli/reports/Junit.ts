/**
 * JUnit XML for `rubr check` (one testcase per gate and per finding) and `rubr validate` (one
 * testsuite per file, one testcase per issue), for CI test-report viewers. Pure: no I/O.
 */
import type { CheckFinding, CheckReport, RepoReport, ValidatedFile, ValidateReport, ValidationIssue } from "./Model.js"

interface TestCase {
  readonly classname: string
  readonly name: string
  readonly file?: string
  readonly line?: number
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string }
  readonly out?: string
}

interface TestSuite {
  readonly name: string
  readonly durationMs: number
  readonly properties: ReadonlyArray<readonly [string, string | number]>
  readonly cases: ReadonlyArray<TestCase>
}

// XML 1.0 `Char`: C0 controls other than tab/LF/CR, lone surrogates and U+FFFE/U+FFFF cannot appear at all
const ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const REFS: Record<string, string> = {
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"
}
const escape = (s: string, special: RegExp) => s.replace(ILLEGAL, "").replace(special, (c) => REFS[c])
// `>` is escaped so `]]>` never appears; CR as a reference so parsers do not turn it into LF
const text = (s: string) => escape(s, /[&<>"'\r]/g)
// tab/LF/CR as references too: a parser normalizes them to spaces in attribute values
const attr = (s: string | number) => escape(String(s), /[&<>"'\t\n\r]/g)

const seconds = (ms: number) => (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3)
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim()
// counted in code points so an emoji is never cut in half
const truncate = (s: string, max = 120) => {
  const chars = Array.from(oneLine(s))
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`
}

const open = (name: string, attrs: Record<string, string | number | undefined>, close = "") =>
  `<${name}${Object.entries(attrs).map(([k, v]) => (v === undefined ? "" : ` ${k}="${attr(v)}"`)).join("")}${close}>`

const renderCase = (c: TestCase): ReadonlyArray<string> => {
  const attrs = { classname: c.classname, name: c.name, file: c.file, line: c.line }
  if (c.failure === undefined && c.out === undefined) return [`    ${open("testcase", attrs, "/")}`]
  const body = c.failure
    ? `${open("failure", { message: c.failure.message, type: c.failure.type })}${text(c.failure.text)}</failure>`
    : `<system-out>${text(c.out ?? "")}</system-out>`
  return [`    ${open("testcase", attrs)}`, `      ${body}`, "    </testcase>"]
}

const render = (suites: ReadonlyArray<TestSuite>): string => {
  const failures = (cases: ReadonlyArray<TestCase>) => cases.filter((c) => c.failure).length
  const all = suites.flatMap((s) => s.cases)
  const totalMs = suites.reduce((sum, s) => sum + s.durationMs, 0)
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    open("testsuites", { name: "rubr", tests: all.length, failures: failures(all), errors: 0, time: seconds(totalMs) }),
    ...suites.flatMap((s) => [
      `  ${open("testsuite", { name: s.name, tests: s.cases.length, failures: failures(s.cases), errors: 0, skipped: 0, time: seconds(s.durationMs) })}`,
      ...(s.properties.length === 0
        ? []
        : ["    <properties>", ...s.properties.map(([name, value]) => `      ${open("property", { name, value }, "/")}`), "    </properties>"]),
      ...s.cases.flatMap(renderCase),
      "  </testsuite>"
    ]),
    "</testsuites>",
    ""
  ].join("\n")
}

const findingCase = (f: CheckFinding): TestCase => {
  const lines = f.lineEnd > f.lineStart ? `${f.lineStart}-${f.lineEnd}` : `${f.lineStart}`
  const details = [
    f.message,
    f.suggestion.trim() && `Suggestion: ${f.suggestion}`,
    `Location: ${f.path}:${lines}${f.bundlePath !== f.path ? ` (${f.bundlePath} in the bundle)` : ""}`,
    `Rule: ${f.ruleId}${f.ruleName ? ` (${f.ruleName})` : ""}`
  ].filter(Boolean).join("\n\n")
  return {
    classname: `rubr.findings.${f.ruleId}`,
    name: `[${f.severity}] ${f.path}:${f.lineStart} ${truncate(f.message)}`,
    file: f.path,
    line: f.lineStart,
    ...(f.failing ? { failure: { message: oneLine(f.message), type: f.severity, text: details } } : { out: details })
  }
}

/** One artifact's testsuite: a testcase per gate and per finding. */
const checkSuite = (report: CheckReport): TestSuite => {
  const e = report.eval
  const properties: TestSuite["properties"] = e === null ? [] : [
    ["audit.id", report.audit.id],
    ["audit.overallScore", report.audit.overallScore],
    ["eval.runId", e.evalRunId],
    ["eval.baseline", e.baseline],
    ["eval.scenarioCount", e.scenarioCount],
    ["eval.sourcePassCount", e.sourcePassCount],
    ["eval.candidatePassCount", e.candidatePassCount],
    ["eval.improvedCount", e.improvedCount],
    ["eval.regressedCount", e.regressedCount],
    ["eval.unchangedCount", e.unchangedCount],
    ["eval.scoreDelta", e.scoreDelta],
    ...(e.regressedCases.length === 0 ? [] : [
      ["eval.regressedCases", e.regressedCases.map((c) => `${c.caseId} ${c.name} (${c.scoreDelta})`).join("; ")] as const
    ])
  ]
  const gates = report.gates.map((g): TestCase => ({
    classname: "rubr.gates",
    name: g.name,
    ...(g.passed ? { out: g.message } : { failure: { message: oneLine(g.message), type: "gate", text: g.message } })
  }))
  return {
    name: `rubr check ${report.target}`,
    durationMs: report.durationMs,
    properties,
    cases: [...gates, ...report.findings.map(findingCase)]
  }
}

export const checkJunit = (report: CheckReport): string => render([checkSuite(report)])

/** `rubr check` over a repository: one testsuite per artifact. */
export const repoJunit = (report: RepoReport): string => render(report.artifacts.map(checkSuite))

const issueCase = (file: string, i: ValidationIssue): TestCase => {
  const where = i.line === null ? file : `${file}:${i.line}`
  const details = [i.message, i.path && `Path: ${i.path}`, `Location: ${where}`].filter(Boolean).join("\n\n")
  return {
    classname: `rubr.flow.${i.code}`,
    name: `[${i.severity}] ${where} ${truncate(i.message)}`,
    file,
    ...(i.line === null ? {} : { line: i.line }),
    ...(i.severity === "error" ? { failure: { message: oneLine(i.message), type: i.severity, text: details } } : { out: details })
  }
}

const fileSuite = (f: ValidatedFile): TestSuite => ({
  name: f.file,
  durationMs: 0,
  properties: [],
  cases: f.issues.length === 0
    ? [{ classname: "rubr.flow", name: "valid", file: f.file }]
    : f.issues.map((i) => issueCase(f.file, i))
})

export const validateJunit = (report: ValidateReport): string => render(report.files.map(fileSuite))
