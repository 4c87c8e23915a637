/**
 * A document's references resolved against its bundle: a file of the bundle, a file of the user's
 * project (outside the bundle), a file the bundle lacks, or one the apply already marked as missing.
 * The reviewer's reference checks and the mock evaluator read a file's references the same way.
 */
import { type BundleIndex, type Doc } from "./Document.js"
import { getField } from "./Frontmatter.js"
import { basename, dirname } from "./Paths.js"
import type { Reference } from "./References.js"

export interface ResolvedRef {
  readonly ref: Reference
  readonly status: "ok" | "outside" | "missing" | "marked"
  readonly resolved?: string
  readonly candidate?: string | null
  readonly reason?: string
}

export const MISSING_MARKER = "not included in this bundle"
/** The marks the apply writes (`(… not included in this bundle …)`), with the space before them: text to read past. */
export const MISSING_MARKS = new RegExp(`\\s*\\([^()]*${MISSING_MARKER}[^()]*\\)`, "g")

/** First path segments that name the conventional folders of a skill or procedure package. */
const BUNDLE_FOLDERS = /^(references?|examples?|scripts?|assets?|templates?|resources?|evals?|evaluations?|prompts?|agents?|rules|schemas?|snippets|data|fixtures|checklists?)$/i

/** A data file's extension: tables, arrays, stores. */
const DATASET = /\.(?:parquet|csv|tsv|feather|arrow|h5|hdf5|h5ad|zarr|npy|npz|pkl|pickle|jsonl|ndjson|sqlite|db|duckdb|xlsx?|avro|orc)\/?$/i

/**
 * Resolves every reference of the document. A bare path whose first folder is neither a
 * conventional bundle folder nor a folder of this bundle (and is not written relative to the skill,
 * `./x` or `<path-to-skill>/x`) names a file of the user's project, not of the bundle: `outside`.
 * So do missing folders mentioned in prose, and paths that end in a bundle file after the skill's
 * own folder name (`skills/<name>/x.md` written from the repository root).
 */
/** What resolving needs: the document, the bundle's file index and the artifact's folder. */
export interface RefContext {
  readonly doc: Doc
  readonly bundle: BundleIndex
  /** the artifact's folder: link targets written from the skill root resolve against it */
  readonly rootDir: string
}

export const resolveRefs = (ctx: RefContext): ReadonlyArray<ResolvedRef> => {
  const ownNames = new Set([basename(ctx.rootDir), basename(ctx.doc.dir), getField(ctx.doc.fm, "name")?.value.trim() ?? ""])
  ownNames.delete("")
  return ctx.doc.refs.map((ref): ResolvedRef => {
    const lineText = ctx.doc.split.lines[ref.line - 1] ?? ""
    const r = ctx.bundle.resolve(ref, ctx.doc.dir, ctx.rootDir)
    if (r.status === "ok") return { ref, status: "ok", resolved: r.resolved }
    if (r.status === "outside") return { ref, status: "outside" }
    const segs = ref.path.replace(/^(\.\/)+/, "").split("/").filter((x) => x !== "")
    for (let k = 1; k < segs.length; k++) {
      if (!ownNames.has(segs[k - 1]!)) continue
      const rest = segs.slice(k).join("/")
      const inner = ctx.bundle.resolve({ ...ref, path: rest, rootRelative: true }, ctx.doc.dir, ctx.rootDir)
      if (inner.status === "ok") return { ref, status: "ok", resolved: inner.resolved }
    }
    if (ref.kind === "path") {
      // after the skill's own folder name, the rest of the path is relative to the skill
      const own = segs.findIndex((x, i) => i < segs.length - 1 && ownNames.has(x))
      const first = segs[own + 1] ?? ""
      const bundleish =
        ref.rootRelative || ref.path.startsWith("./") || BUNDLE_FOLDERS.test(first) || ctx.bundle.hasDir(first)
      // a hidden folder the bundle does not have (`./.github/workflows/build.yml`, `.vscode/`) is the
      // user's repository's configuration: skills ship no dot-folders
      const hidden = /^\.[\w-]/.test(first) && !ctx.bundle.hasDir(first)
      // `./config.sh` with no folder, from a skill that ships no file beside itself (nothing, or only
      // folders: references/, scripts/), is a file where the agent works (a runner's own script, the
      // project's `./tracing.js`): a bundle keeps its files in its folders
      const shipsNothing = ref.path.startsWith("./") && segs.length === 1 &&
        !ctx.bundle.paths.some((p) => p !== ctx.doc.path && dirname(p) === ctx.doc.dir)
      // a dataset under `data/` (`data/train.parquet`, `data/raw/orders.csv`) when the bundle has no such
      // folder is the project's data: skills ship instructions and code, a dataset is what they work on
      const dataset = /^data$/i.test(first) && DATASET.test(ref.path) && !ctx.bundle.hasDir(first)
      if (!bundleish || hidden || shipsNothing || dataset || ref.directory) return { ref, status: "outside" }
    }
    if (lineText.includes(MISSING_MARKER)) return { ref, status: "marked" }
    return { ref, status: "missing", candidate: r.candidate, reason: r.reason }
  })
}
