/** Shared helpers for the review tests: corpus loading and ReviewInput builders. Pure, no database. */
import * as fs from "node:fs"
import * as path from "node:path"
import { Option } from "effect"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { getRubric } from "../../src/review/rubrics/Registry.js"
import type { ArtifactType } from "../../src/domain/Artifact.js"
import type { ReviewFile, ReviewInput, ReviewResult, Rubric } from "../../src/review/Types.js"
import { corpusPath } from "../support/Corpus.js"

/** The visible corpus (test/support/Corpus.ts finds it). */
export const CORPUS_DIR = corpusPath("skills")
export const corpusAvailable = fs.existsSync(CORPUS_DIR)
if (!corpusAvailable) {
  console.warn(`[review tests] corpus not found at ${CORPUS_DIR}: corpus tests are skipped`)
}

const walk = (dir: string): Array<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))

export const corpusSkills = (): Array<string> =>
  corpusAvailable
    ? fs
      .readdirSync(CORPUS_DIR)
      .filter((d) => fs.existsSync(path.join(CORPUS_DIR, d, "SKILL.md")))
      .sort()
    : []

/** A corpus skill as a bundle: paths relative to the skill folder, SKILL.md at the root. */
export const loadSkill = (name: string, prefix = ""): Array<ReviewFile> => {
  const dir = path.join(CORPUS_DIR, name)
  return walk(dir).map((p, i) => {
    const rel = prefix + path.relative(dir, p).split(path.sep).join("/")
    return { path: rel, content: fs.readFileSync(p, "utf8"), fileVersionId: `fv-${i}`, isPrimary: rel.endsWith("SKILL.md") }
  })
}

export const rubricFor = (t: ArtifactType): Rubric => Option.getOrThrow(getRubric(t))

export const file = (p: string, content: string, isPrimary = false): ReviewFile => ({
  path: p,
  content,
  fileVersionId: `fv-${p}`,
  isPrimary
})

export const fileInput = (
  target: ReviewFile,
  files: ReadonlyArray<ReviewFile> = [target],
  artifactType: ArtifactType = "skill",
  rubric: Rubric = rubricFor(artifactType)
): ReviewInput => ({
  mode: "file",
  artifactType,
  rubric,
  target,
  files: files.some((f) => f.path === target.path) ? files : [...files, target],
  modelTier: "standard",
  reasoningEffort: "medium"
})

export const withTarget = (files: ReadonlyArray<ReviewFile>, targetPath: string, content: string): {
  target: ReviewFile
  files: Array<ReviewFile>
} => {
  const target = { ...files.find((f) => f.path === targetPath)!, content }
  return { target, files: files.map((f) => (f.path === targetPath ? target : f)) }
}

export const scoreOf = (r: ReviewResult, key: string): number => r.scores.find((s) => s.key === key)!.score

/** 1-based line of the first line containing `needle`. */
export const lineOf = (text: string, needle: string): number => {
  const i = text.split(/\r?\n/).findIndex((l) => l.includes(needle))
  if (i < 0) throw new Error(`not found: ${needle}`)
  return i + 1
}

/** A realistic, clean skill used when the corpus is absent and as a base for seeded defects. */
export const SAMPLE_SKILL = `---
name: release-notes
description: Drafts release notes from merged pull requests and the changelog. Use when the user asks for release notes, a changelog entry or a summary of what shipped in a version.
license: MIT
metadata:
  short-description: Draft release notes
---

# Release Notes

Turn the merged pull requests of a release into release notes that users can read in two minutes.

## When to use

Use this skill when a user asks what changed in a version or wants release notes drafted.

## Steps

1. Read \`reference/style.md\` for the tone and the section order.
2. List the merged pull requests with \`gh pr list --state merged --base main --json number,title,labels\`.
3. Group the pull requests by label into Features, Fixes and Internal.
4. Write one line per user-visible change, linking the pull request number.
5. Check the draft against [the checklist](reference/checklist.md) before sharing it.

## Examples

\`\`\`markdown
## v2.3.0
### Features
- Export audits as CSV (#412)
\`\`\`

See \`examples/v2.md\` for a complete release.

## Rules

- Never include internal-only changes in the Features section.
- Ask the user when a pull request has no label.

## Verification

Every merged pull request of the release appears exactly once in the draft, and each line names a
change a user can see. If \`gh\` fails or is not authenticated, stop and report the error.
`

export const sampleBundle = (content = SAMPLE_SKILL): Array<ReviewFile> => [
  file("SKILL.md", content, true),
  file("reference/style.md", "# Style\n\nShort sentences.\n"),
  file("reference/checklist.md", "# Checklist\n\n- [ ] Every change links a PR\n"),
  file("examples/v2.md", "# v2.0.0\n\n- Initial release\n")
]

/**
 * A SKILL.md text reviewed in file mode inside the sample bundle (the near-miss tests). The skill
 * rubric stays when another artifact type is named, so only the type's own reading changes.
 */
export const reviewText = (content: string, artifactType: ArtifactType = "skill"): ReviewResult => {
  const { target, files } = withTarget(sampleBundle(), "SKILL.md", content)
  return reviewWithMock({ ...fileInput(target, files), artifactType })
}
export const ruleIds = (r: ReviewResult): Array<string> => r.findings.map((f) => f.ruleId)
export const findingOf = (r: ReviewResult, ruleId: string) => r.findings.find((f) => f.ruleId === ruleId)
export const severityOf = (r: ReviewResult, ruleId: string) => findingOf(r, ruleId)?.severity

/**
 * A rebuild skill with a title and a short procedure, to which a near-miss test appends one section:
 * does that section draw SK-SAFE-DESTRUCTIVE? (The ninth round onwards.)
 */
export const REBUILD_FRONT = "---\nname: release-notes\ndescription: Cleans and rebuilds a project, and writes its migrations and scripts. Use when a build misbehaves or a table is added.\n---\n\n"
export const REBUILD_TITLE = "# Rebuild\n\nRebuild from a clean tree when a build misbehaves after a dependency change.\n\n"
export const REBUILD_STEPS = "## Steps\n\n1. Reinstall with `npm ci`.\n2. Run `npm run build` and check it exits 0.\n3. Report what changed.\n\n"
export const flagsDestructive = (section: string): boolean =>
  ruleIds(reviewText(`${REBUILD_FRONT}${REBUILD_TITLE}${REBUILD_STEPS}${section}`)).includes("SK-SAFE-DESTRUCTIVE")

/** A SKILL.md reviewed with the given bundle files beside it (each a small shell script). */
export const reviewWithFiles = (content: string, paths: ReadonlyArray<string>): ReviewResult => {
  const target = file("SKILL.md", content, true)
  return reviewWithMock(fileInput(target, [target, ...paths.map((p) => file(p, "#!/bin/sh\necho ok\n"))]))
}
