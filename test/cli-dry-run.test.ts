/**
 * `--dry-run` answers every request from the contract (src/cli/DryRun.ts): each endpoint's answer is
 * made from its success schema and must decode through it, so a new endpoint or field the generator
 * cannot fill fails here, not in a user's dry run.
 */
import { describe, expect, it } from "vitest"
import { contractAnswers, placeholderId } from "../src/cli/DryRun.js"

describe("--dry-run answers", () => {
  const answers = contractAnswers()

  it("covers every endpoint of the contract, each with an answer its schema accepts", () => {
    expect(answers.length).toBeGreaterThan(50)
    for (const a of answers) expect(typeof a.status, `${a.method} ${a.path}`).toBe("number")
  })

  it("takes the path where everything succeeds: a job completed, no next page, nothing to pay", () => {
    const of = (method: string, path: string) => answers.find((a) => a.method === method && a.path === path)!.body as any
    expect(of("GET", "/api/v1/jobs/:jobId").data.job.state).toBe("completed")
    expect(of("GET", "/api/v1/artifact-bundles").data.pagination.nextOffset).toBeNull()
    expect(of("GET", "/api/v1/artifact-bundles").data.artifactBundles).toEqual([])
    expect(of("POST", "/api/v1/artifact-bundles/:artifactBundleId/audits/estimate").data.creditCost.credits).toBe(0)
    expect(of("GET", "/api/v1/artifact-bundles/:artifactBundleId/audits/:auditRunId").data.auditRun.status).toBe("completed")
  })

  it("hands out placeholder ids that are valid UUIDs, never the same twice", () => {
    const a = placeholderId()
    const b = placeholderId()
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(a).not.toBe(b)
  })
})
