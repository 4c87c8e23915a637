/**
 * Where the shared corpus of real skills is: beside the repository (../shared/corpus), or under
 * /work/shared/corpus when the repository is a clone elsewhere (CI clones into a temporary folder).
 * Tests that need it find it through here, so none is silently skipped for where it was cloned.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

const repoRoot = Path.resolve(import.meta.dirname, "..", "..")

export const CORPUS_ROOT: string =
  [Path.resolve(repoRoot, "../shared/corpus"), "/work/shared/corpus"].find((dir) => Fs.existsSync(dir)) ??
    Path.resolve(repoRoot, "../shared/corpus")

/** A path inside the corpus, e.g. `corpusPath("skills", "gh-fix-ci")`. */
export const corpusPath = (...segments: Array<string>): string => Path.join(CORPUS_ROOT, ...segments)
