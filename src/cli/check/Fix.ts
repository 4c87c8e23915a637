/**
 * `rubr check --fix` and `--diff`: each audit's improved files, written back into the working tree or
 * shown as a unified diff. Only files the audit rewrote and the artifact has locally are touched,
 * never a path outside the artifact's folder, and never a file that changed since it was read and
 * uploaded (the improvement was made from the uploaded text: writing it would lose the new edit).
 * Every file is checked before the first is written, so a refusal writes nothing.
 */
import { createTwoFilesPatch } from "diff"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { readText } from "../Files.js"
import { usage } from "../Failure.js"
import type { Colors } from "../Output.js"
import type { AuditDetail } from "./Audit.js"
import type { PlannedArtifact } from "./Plan.js"

export interface Change {
  /** repository-relative */
  readonly local: string
  readonly absolute: string
  readonly before: string
  readonly after: string
}

/** The improved files of an audit that would change a local file of the artifact. */
export const changesOf = (root: string, artifact: PlannedArtifact, detail: Pick<AuditDetail, "improvedVersion" | "improvedFiles">): ReadonlyArray<Change> => {
  const improved = detail.improvedVersion ? [detail.improvedVersion] : detail.improvedFiles
  const byPath = new Map(artifact.files.map((f) => [f.path, f]))
  const changes: Array<Change> = []
  for (const file of improved) {
    const local = byPath.get(file.path)
    if (!local) continue
    const absolute = Path.resolve(artifact.dir, file.path)
    const inside = Path.relative(artifact.dir, absolute)
    if (inside === "" || inside.startsWith("..") || Path.isAbsolute(inside)) continue
    if (Path.resolve(root, local.local) !== absolute) continue
    if (file.content === local.content) continue
    changes.push({ local: local.local, absolute, before: local.content, after: file.content })
  }
  return changes
}

/** Refuses (exit 2, naming the files) when a file to fix changed on disk since it was read. */
export const assertUnchanged = (changes: ReadonlyArray<Change>) => {
  const moved = changes.filter((c) => {
    try {
      return readText(c.absolute) !== c.before
    } catch {
      return true
    }
  })
  if (moved.length > 0) {
    throw usage(
      `--fix refused: ${moved.map((c) => c.local).join(", ")} changed since it was uploaded for the audit; nothing was written. Run \`rubr check --fix\` again on the current files.`
    )
  }
}

export const writeChanges = (changes: ReadonlyArray<Change>) => {
  for (const c of changes) Fs.writeFileSync(c.absolute, c.after)
}

/** A unified diff of the changes, `a/` and `b/` prefixed as git prints them; coloured when `c` paints. */
export const unifiedDiff = (changes: ReadonlyArray<Change>, c: Colors): string =>
  changes.map((change) => {
    const patch = createTwoFilesPatch(`a/${change.local}`, `b/${change.local}`, change.before, change.after, undefined, undefined, { context: 3 })
    return patch
      .split("\n")
      // the `Index:` header and its rule are diff's, not git's
      .filter((line, i) => !(i === 0 && line.startsWith("Index:")) && !(i === 1 && /^=+$/.test(line)))
      .map((line) =>
        line.startsWith("+++") || line.startsWith("---")
          ? c.bold(line)
          : line.startsWith("+")
          ? c.green(line)
          : line.startsWith("-")
          ? c.red(line)
          : line.startsWith("@@")
          ? c.cyan(line)
          : line
      )
      .join("\n")
      .trimEnd()
  }).join("\n")
