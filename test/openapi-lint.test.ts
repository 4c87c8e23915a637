/**
 * Issue 15, item 9: the OpenAPI document's quality. Every operation has a summary, a description and
 * its access rule (`x-required-scopes`, read off the same `Access` annotation the server enforces);
 * every tag has a description; `servers` is set; and Redocly CLI's recommended ruleset finds 0 errors.
 */
import { HttpApi } from "@effect/platform"
import { Context, Option } from "effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { Access, type AccessRule, allScopes, keySatisfies } from "../src/auth/Scopes.js"
import { RubrApi } from "../src/Api.js"
import { accessRuleFor } from "../src/Routes.js"
import { openApiDocument } from "../src/system/Http.js"
import { accessSentence, REQUIRED_SCOPES } from "../src/system/OpenApiAccess.js"

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

/** Every operation of the document, as the service serves it. */
const operations = (doc: any) =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, op]) => ({ path, method, op }))
  )

/** Every endpoint of the API definition with its declared access rule (what the middleware reads). */
const endpoints = () => {
  const out: Array<{ name: string; method: string; routePath: string; path: string; rule: AccessRule | undefined }> = []
  HttpApi.reflect(RubrApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      out.push({
        name: `${group.identifier}.${endpoint.name}`,
        method: endpoint.method,
        routePath: endpoint.path,
        path: endpoint.path.replace(/:(\w+)\??/g, "{$1}"),
        rule: Option.getOrUndefined(Context.getOption(mergedAnnotations, Access))
      })
    }
  })
  return out
}

describe("the OpenAPI document", () => {
  const doc = JSON.parse(JSON.stringify(openApiDocument()))

  it("every operation carries x-required-scopes equal to its endpoint's Access rule, and says it in words", () => {
    const declared = endpoints()
    const ops = operations(doc)
    expect(ops.length).toBe(declared.length)
    expect(ops.length).toBeGreaterThan(50)
    for (const endpoint of declared) {
      expect(endpoint.rule, `${endpoint.name} declares an Access rule`).toBeDefined()
      const rule = endpoint.rule!
      // the rule the document shows is the one the authentication middleware enforces
      expect(accessRuleFor(endpoint.method, endpoint.routePath), endpoint.name).toEqual(rule)
      const op = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()]
      expect(op, `${endpoint.method} ${endpoint.path} is in the document`).toBeDefined()
      const ext = op[REQUIRED_SCOPES]
      switch (rule.kind) {
        case "public":
        case "loginOnly":
          expect(ext, endpoint.name).toEqual({ kind: rule.kind })
          break
        case "scoped":
          // both arrays, always, so a consumer never guesses what a missing one means
          expect(ext, endpoint.name).toEqual({ kind: "scoped", anyOf: [...rule.anyOf], allOf: [...rule.allOf] })
          break
      }
      // a consumer that applies the extension grants exactly what the server grants, for every single scope
      if (rule.kind === "scoped") {
        for (const scope of allScopes) {
          expect(keySatisfies(ext, new Set([scope])), `${endpoint.name} with ${scope}`).toBe(keySatisfies(rule, new Set([scope])))
        }
        expect(keySatisfies(ext, new Set(allScopes)), endpoint.name).toBe(true)
      }
      expect(op.description.endsWith(accessSentence(rule)), `${endpoint.name}'s description ends with its access`).toBe(true)
    }
  })

  it("reads as the contract's rules: a few operations by name", () => {
    const op = (path: string, method: string) => doc.paths[`/api/v1${path}`][method][REQUIRED_SCOPES]
    expect(op("/health", "get")).toEqual({ kind: "public" })
    expect(op("/api-keys", "post")).toEqual({ kind: "loginOnly" })
    expect(op("/me", "get")).toEqual({ kind: "scoped", anyOf: [], allOf: [] })
    expect(op("/artifact-bundles", "get")).toEqual({ kind: "scoped", anyOf: ["artifact_bundles:read", "artifacts:pull"], allOf: [] })
    expect(op("/artifact-bundles/{artifactBundleId}/restore", "post")).toEqual({
      kind: "scoped",
      anyOf: [],
      allOf: ["artifact_bundles:write", "files:write"]
    })
    expect(op("/jobs/{jobId}/cancel", "post")).toEqual({ kind: "scoped", anyOf: ["jobs:write"], allOf: [] })
    expect(doc.paths["/api/v1/artifact-bundles/{artifactBundleId}/restore"].post.description).toContain(
      "an API key with all of the scopes `artifact_bundles:write` and `files:write`"
    )
    // the extension is explained once, in the document's own description
    expect(doc.info.description).toContain("`x-required-scopes`")
  })

  it("every operation has a summary and a description, every tag a description, and servers are set", () => {
    for (const { method, op, path } of operations(doc)) {
      expect(typeof op.summary === "string" && op.summary.length > 0, `${method} ${path} has a summary`).toBe(true)
      expect(op.summary.length, `${method} ${path}'s summary is short`).toBeLessThanOrEqual(60)
      expect(op.summary.endsWith("."), `${method} ${path}'s summary is a title, not a sentence`).toBe(false)
      expect(typeof op.description === "string" && op.description.length > 0, `${method} ${path} has a description`).toBe(true)
    }
    const summaries = operations(doc).map(({ op }) => op.summary)
    expect(new Set(summaries).size, "summaries are unique").toBe(summaries.length)
    for (const tag of doc.tags) expect(tag.description, `tag ${tag.name} has a description`).toBeTruthy()
    const used = new Set(operations(doc).flatMap(({ op }) => op.tags))
    expect(new Set(doc.tags.map((t: any) => t.name))).toEqual(used)
    // relative to the document's own URL: the paths already carry /api/v1, so the server is the origin
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })])
  })

  /**
   * Warnings the recommended ruleset may report, each for a reason: anything else fails the test.
   * - info-license: the service is private and declares no licence; choosing one is not the API's call.
   * - operation-4xx-response on /health (it answers 200 or 503, and no 4xx by design: probes poll it,
   *   so it is the one public route outside the per-IP limit).
   */
  const acceptedWarnings = new Set([
    "info-license #/info",
    "operation-4xx-response #/paths/~1api~1v1~1health/get/responses"
  ])

  it("Redocly CLI's recommended ruleset lints it with 0 errors", async () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-openapi-lint-"))
    try {
      const file = Path.join(dir, "openapi.json")
      Fs.writeFileSync(file, JSON.stringify(openApiDocument(), null, 2))
      const cli = createRequire(import.meta.url).resolve("@redocly/cli/package.json").replace(/package\.json$/, "bin/cli.js")
      // cwd is the empty temporary folder, so no redocly.yaml of the project or the user changes the rules
      const output = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [cli, "lint", "--extends", "recommended", "--format", "json", file],
          {
            cwd: dir,
            timeout: 30_000,
            maxBuffer: 64 * 1024 * 1024,
            env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" }
          },
          // exit code 1 means problems were found: the JSON report says which
          (error, stdout, stderr) => stdout.trim().startsWith("{") ? resolve(stdout) : reject(error ?? new Error(stderr))
        )
      )
      const report = JSON.parse(output) as {
        problems: ReadonlyArray<{ ruleId: string; severity: string; message: string; location: ReadonlyArray<{ pointer: string }> }>
      }
      const describe = (p: (typeof report.problems)[number]) => `${p.ruleId} ${p.location[0]?.pointer ?? ""}`
      const errors = report.problems.filter((p) => p.severity === "error")
      const warnings = report.problems.filter((p) => p.severity === "warn")
      expect(errors.map((p) => `${describe(p)}: ${p.message}`), "Redocly errors").toEqual([])
      expect(warnings.map(describe).filter((w) => !acceptedWarnings.has(w)), "unexpected Redocly warnings").toEqual([])
    } finally {
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
