/**
 * The test cases of an eval, fixed at admission: the request's (normalized), else the latest
 * completed audit's eval kit for the source version, else generated from the source the way the
 * mock reviewer builds an eval kit. Pure, except for the caller's lookup of the audit.
 */
import { analyzeDoc } from "../markdown/Document.js"
import { buildEvalKit } from "../review/EvalKit.js"
import type { ArtifactType } from "../domain/Artifact.js"
import type { EvalCase } from "../domain/EvalCase.js"
import type { TestCaseInput } from "./Api.js"
import type { CasesSource } from "./Records.js"

export interface ResolvedCases {
  readonly cases: ReadonlyArray<EvalCase>
  readonly source: CasesSource
  readonly auditRunId: string | null
}

/** Request cases: ids assigned where missing (`case-N`, never clashing), `type` standard by default. */
export const normalizeCases = (cases: ReadonlyArray<typeof TestCaseInput.Type>): Array<EvalCase> | { readonly duplicate: string } => {
  const given = new Set<string>()
  for (const c of cases) {
    if (c.id === undefined) continue
    if (given.has(c.id)) return { duplicate: c.id }
    given.add(c.id)
  }
  let n = 0
  const nextId = () => {
    let id: string
    do id = `case-${++n}`
    while (given.has(id))
    return id
  }
  return cases.map((c, i) => ({
    id: c.id ?? nextId(),
    name: c.name ?? `Case ${i + 1}`,
    type: c.type ?? "standard",
    input: c.input,
    expectedBehavior: c.expectedBehavior,
    passCriteria: c.passCriteria
  }))
}

/** Cases generated from the source version (the mock reviewer's eval kit builder). */
export const generateCases = (
  source: { readonly path: string; readonly content: string; readonly fileVersionId: string },
  artifactType: string,
  bundlePaths: ReadonlyArray<string>
): Array<EvalCase> =>
  buildEvalKit(
    analyzeDoc({ path: source.path, content: source.content }),
    (["skill", "agent", "prompt", "command", "workflow", "rubr_flow"].includes(artifactType) ? artifactType : "prompt") as ArtifactType,
    bundlePaths
  )

/** An eval kit case as stored by an audit (same shape; ids kept). */
export const isEvalCase = (u: unknown): u is EvalCase =>
  typeof u === "object" && u !== null &&
  ["id", "name", "input", "expectedBehavior", "passCriteria"].every((k) => typeof (u as Record<string, unknown>)[k] === "string") &&
  ((u as Record<string, unknown>).type === "standard" || (u as Record<string, unknown>).type === "scenario")
