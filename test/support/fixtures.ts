/** Shared helpers for feature tests: bundles with files, polling jobs. */
import { Effect } from "effect"
import { sleep, TestApp } from "./TestApp.js"

export const call = <T = any>(f: (app: typeof TestApp.Service) => Promise<T>) =>
  Effect.flatMap(TestApp, (app) => Effect.promise(() => f(app)))

export const SKILL_WITH_DANGLING_LINK = `---
name: release-notes
description: Writes release notes from merged pull requests. Use when preparing a release.
---

# Release notes

Collect the merged pull requests and write the notes.

## Steps

1. List merged pull requests since the last tag.
2. Group them by label, see [the style guide](reference/style.md).
3. Write the notes using [the template](templates/notes.md).

## Example

\`\`\`md
## v1.2.0
- Added export to CSV (#123)
\`\`\`
`

/** Creates a bundle with the given files; returns its id and the upload reply's files. */
export const bundleWith = (token: string, files: ReadonlyArray<{ path: string; content: string }>, name = "bundle") =>
  Effect.gen(function*() {
    const created = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name } }))
    if (created.status !== 201) throw new Error(`bundle creation failed: ${created.status} ${created.text}`)
    const bundleId: string = created.body.data.artifactBundle.id
    if (files.length > 0) {
      const uploaded = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files } }))
      if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${uploaded.text}`)
      return { bundleId, files: uploaded.body.data.files as ReadonlyArray<any> }
    }
    return { bundleId, files: [] as ReadonlyArray<any> }
  })

export const skillBundle = (token: string) =>
  bundleWith(token, [
    { path: "SKILL.md", content: SKILL_WITH_DANGLING_LINK },
    { path: "reference/style.md", content: "# Style\n\nShort bullet points.\n" }
  ], "release-notes")

export const waitForJob = (token: string, jobId: string, until: ReadonlyArray<string> = ["completed", "failed", "cancelled"]) =>
  Effect.gen(function*() {
    for (let i = 0; i < 400; i++) {
      const reply = yield* call((app) => app.request("GET", `/jobs/${jobId}`, { token }))
      if (until.includes(reply.body.data.job.state)) return reply.body.data.job
      yield* sleep(50)
    }
    throw new Error(`job ${jobId} never reached ${until.join("/")}`)
  })

export const count = (table: string, where = "true") =>
  Effect.flatMap(TestApp, (app) =>
    Effect.map(app.sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`), (rows) => rows[0].n)
  ).pipe(Effect.orDie)
