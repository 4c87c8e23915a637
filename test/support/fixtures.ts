/** Shared helpers for feature tests: calling the app, the error envelope, bundles with files, polling jobs. */
import { Effect, Schema } from "effect"
import { expect } from "vitest"
import { envelopeBody } from "../../src/domain/Errors.js"
import type { BodyOf } from "./Api.js"
import { sleep, TestApp } from "./TestApp.js"

/** Runs one step against the file's TestApp (a request, a token) inside the test's Effect. */
export const call = <T>(f: (app: typeof TestApp.Service) => Promise<T>) =>
  Effect.flatMap(TestApp, (app) => Effect.promise(() => f(app)))

/**
 * The reply is the one error envelope with this status and code: JSON, `{error}` and nothing else, the
 * error decoded by the contract's own schema (code, message, details, requestId and no other key), its
 * requestId the response's `x-request-id`.
 */
export const expectError = (reply: { readonly status: number; readonly headers: Headers; readonly body: unknown }, status: number, code: string) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status)
  expect(reply.headers.get("content-type")).toContain("application/json")
  const body = Schema.decodeUnknownSync(envelopeBody(code))(reply.body, { onExcessProperty: "error" })
  expect(body.error.requestId).toBe(reply.headers.get("x-request-id"))
  return body.error
}

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

type UploadedFiles = BodyOf<"POST", `/artifact-bundles/${string}/files`>["data"]["files"]

/** Creates a bundle with the given files; returns its id and the upload reply's files. */
export const bundleWith = (token: string, files: ReadonlyArray<{ path: string; content: string }>, name = "bundle") =>
  Effect.gen(function*() {
    const created = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name } }))
    if (created.status !== 201) throw new Error(`bundle creation failed: ${created.status} ${created.text}`)
    const bundleId: string = created.body.data.artifactBundle.id
    if (files.length > 0) {
      const uploaded = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files } }))
      if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${uploaded.text}`)
      return { bundleId, files: uploaded.body.data.files }
    }
    return { bundleId, files: [] as UploadedFiles }
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

/** Every user's balance row equals the sum of their ledger events (grants + refunds - debits). */
export const balanceMatchesLedger = Effect.gen(function*() {
  const app = yield* TestApp
  const rows = yield* app.sql<{ balance: number; sum: number }>`
    SELECT b.balance,
      (SELECT COALESCE(SUM(CASE type WHEN 'debit' THEN -amount ELSE amount END), 0)::int FROM credit_ledger l WHERE l.user_id = b.user_id) AS sum
    FROM credit_balances b`.pipe(Effect.orDie)
  for (const row of rows) {
    if (row.balance !== row.sum) throw new Error(`balance ${row.balance} differs from the ledger's sum ${row.sum}`)
  }
  return rows.length
})

export const count = (table: string, where = "true") =>
  Effect.flatMap(TestApp, (app) =>
    Effect.map(app.sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`), (rows) => rows[0].n)
  ).pipe(Effect.orDie)

/** A realistic skill for conversions: inputs, numbered steps with commands, rules, failure handling, an example. */
export const DEPLOY_SKILL = `---
name: deploy-preview
description: Deploys a pull request to a preview environment and reports the URL. Use when a user asks for a preview deployment of a pull request.
---

# Deploy preview

Build the pull request's branch, deploy it to a preview environment and report the preview URL.

## Inputs

- \`pr\`: the pull request number or URL (optional; defaults to the current branch's pull request)
- \`environment\`: the preview environment name (default \`preview\`)

## Steps

1. Check out the pull request's branch with \`gh pr checkout <pr>\`.
2. Install dependencies with \`npm ci\`.
   - If the install fails, report the error and stop.
3. Build the app with \`npm run build\` and confirm that \`dist/\` exists.
4. Deploy with \`npx vercel deploy --prebuilt --env <environment>\`.
5. Post the preview URL as a comment on the pull request with \`gh pr comment <pr>\`.

## Rules

- Never deploy to production from this skill.
- Always ask the user before deploying a branch from a fork.

## Example

\`\`\`text
User: deploy a preview of #42
Agent: Deployed #42 to https://app-pr-42.preview.example.com and commented on the pull request.
\`\`\`
`

/** A source the mock can convert only after its repair pass: two sections with the same title, one with no content. */
export const REPAIRABLE_SKILL = `---
name: tidy-release
description: Tidies a release branch before tagging. Use when preparing a release branch.
---

# Tidy release

## Step 1: Build

Run \`npm run build\` and confirm that \`dist/\` exists.

## Step 2: Build

Run \`npm run build:docs\` and confirm that \`docs/dist/\` exists.

## Step 3: Prepare

## Step 4: Tag

Create the tag with \`git tag v<version>\` and push it with \`git push origin v<version>\`.
`

/** A source whose rules contradict each other: no repair may pick a side, so the conversion fails. */
export const CONTRADICTORY_SKILL = `---
name: push-policy
description: Pushes finished work. Use when work is ready to share.
---

# Push policy

## Steps

1. Commit the work with a descriptive message.
2. Push the branch to the remote.

## Rules

- Always push to main.
- Never push to main.
`
