/**
 * Bundle references: links and paths that must resolve to bundle files, and heading anchors.
 */
import type { Severity } from "../../Types.js"
import { headingAnchors } from "../../../markdown/Markdown.js"
import { basename, globToRegExp } from "../../../markdown/Paths.js"
import type { Reference } from "../../../markdown/References.js"
import type { Doc } from "../../../markdown/Document.js"
import { PACKAGE_TYPES } from "../../../domain/Artifact.js"
import { resolveRefs, type ResolvedRef } from "../../../markdown/BundleRefs.js"
import { bodyStart, type CheckContext, type CheckOutcome, decodeURIComponentSafe, Out } from "./Common.js"

// ---------------------------------------------------------------- references

/** `points` up to two thirds of `cap` as they are, then approaching `cap` without reaching it. */
const saturate = (points: number, cap: number): number => {
  const knee = (cap * 2) / 3
  return points <= knee ? points : knee + (cap - knee) * (1 - Math.exp(-(points - knee) / (cap - knee)))
}

/** A path the text tells the agent to create or write (an output, not a bundle file), or a placeholder name. */
const CREATES = /\b(create|creates|creating|write|writes|writing|save|saves|saving|generate|generates|output|outputs|produce|produces|export|exports|touch|mkdir|store|stores|emit|emits|dump|render|renders)\b/i
const PLACEHOLDER_NAME = /(^|[_.-])(name|your|my|foo|bar|baz|xxx|placeholder|something|whatever)([_.-]|$)|^(path\/to|some)\//i

export const createdOrPlaceholder = (doc: Doc, ref: Reference): boolean => {
  if (PLACEHOLDER_NAME.test(basename(ref.path)) || PLACEHOLDER_NAME.test(ref.path)) return true
  // a link points at something that exists; only a bare path can be an output
  if (ref.kind === "link") return false
  const line = doc.split.lines[ref.line - 1] ?? ""
  // the words right before the path: "save the report to `out/report.md`", "write `notes.md`",
  // "python x.py -o results/out.json"; a verb further back ("when writing …, read `x.md`") governs something else
  const before = (line.slice(0, ref.column).split(/(?<=[.!?;:])\s+/).at(-1) ?? "").replace(/[`"'[(]+$/, "")
  const near = before.split(/\s+/).filter((w) => w !== "").slice(-5).join(" ")
  if (/(?:^|\s)(?:-o|--output|--out|>)\s*$/.test(before)) return true
  const verb = CREATES.exec(near)
  return verb !== null && !/\b(read|see|load|open|follow|check|consult|use|using|run|refer|review|fill|copy|with|via|by)\b/i.test(near.slice(verb.index + verb[0].length))
}

/** Files reachable from the artifact through references (transitively through other documents). */
const reachable = (ctx: CheckContext, first: ReadonlyArray<ResolvedRef>): Set<string> => {
  const seen = new Set<string>([ctx.doc.path])
  const queue: Array<string> = []
  const visit = (p: string) => {
    if (p === "") return
    const re = p.includes("*") ? globToRegExp(p) : null
    for (const f of ctx.bundle.paths) {
      if (seen.has(f)) continue
      if (re ? re.test(f) : f === p || f.startsWith(`${p}/`)) {
        seen.add(f)
        queue.push(f)
      }
    }
  }
  for (const r of first) if (r.status === "ok" && r.resolved !== undefined) visit(r.resolved)
  while (queue.length > 0) {
    const p = queue.shift()!
    const d = ctx.docAt(p)
    if (!d) continue
    for (const r of resolveRefs({ ...ctx, doc: d })) if (r.status === "ok" && r.resolved !== undefined) visit(r.resolved)
  }
  return seen
}

export const references = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("references", ctx.disabledRules)
  const { artifactType, doc } = ctx
  const pkg = PACKAGE_TYPES.has(artifactType)
  const resolved = resolveRefs(ctx)
  const reportedPaths = new Set<string>()
  let linkPoints = 0
  let pathPoints = 0
  let dangling = 0
  const missing = resolved.filter((r) => r.status === "missing" && r.ref.kind !== "name" && (r.ref.kind !== "path" || pkg) && !createdOrPlaceholder(doc, r.ref))
  for (const r of missing) {
    const { ref } = r
    const key = `${ref.kind}:${ref.path}`
    // one finding per missing file, at its first mention; the others are named in it
    if (reportedPaths.has(key)) continue
    reportedPaths.add(key)
    const first = true
    const others = [...new Set(missing.filter((x) => x !== r && `${x.ref.kind}:${x.ref.path}` === key).map((x) => x.ref.line))]
    const also = others.length === 0 ? "" : ` (also on line${others.length > 1 ? "s" : ""} ${others.join(", ")})`
    const fix = r.candidate
      ? `Point it at \`${r.candidate}\` (${r.reason}).`
      : ref.kind === "link"
        ? `Add \`${ref.path}\` to the bundle, or remove the link.`
        : `Add \`${ref.path}\` to the bundle, or stop referring to it.`
    const what = ref.directory ? "folder" : ref.glob ? "pattern" : "file"
    const severity: Severity = !pkg ? "minor" : ref.directory || ref.glob ? "minor" : "major"
    o.issue(
      ref.kind === "link" ? "dangling_link" : "dangling_path",
      severity,
      ref.line,
      ref.kind === "link"
        ? `The link to \`${ref.written}\` points at a ${what} that is not in the bundle${pkg ? "" : " (fine if it exists in the repository)"}${also}`
        : `\`${ref.written}\` names a ${what} that is not in the bundle${also}`,
      fix
    )
    if (first) {
      dangling++
      if (ref.directory || ref.glob) pathPoints += 10
      else if (ref.kind === "link") linkPoints += pkg ? 25 : 10
      else pathPoints += 20
    }
  }
  // near the cap every further missing file still costs a little: one more is always worse
  if (linkPoints > 0) o.deduct(saturate(linkPoints, 75), "links to files missing from the bundle")
  if (pathPoints > 0) o.deduct(saturate(pathPoints, 60), "paths to files missing from the bundle")
  // in-document and cross-document anchors must name a heading
  let badAnchors = 0
  const own = headingAnchors(doc.md.headings)
  for (const l of doc.md.links) {
    const hash = l.target.indexOf("#")
    if (hash < 0 || /^[a-z][a-z0-9+.-]*:/i.test(l.target) || l.target.startsWith("//")) continue
    const anchor = decodeURIComponentSafe(l.target.slice(hash + 1)).toLowerCase()
    if (anchor === "" || /^l\d+/.test(anchor)) continue
    let anchors: Set<string> | null = null
    if (hash === 0) anchors = own
    else {
      const r = resolved.find((x) => x.ref.kind === "link" && x.ref.line === l.line && x.ref.column === l.column)
      const target = r?.status === "ok" && r.resolved !== undefined ? ctx.docAt(r.resolved) : undefined
      if (target) anchors = headingAnchors(target.md.headings)
    }
    if (anchors && !anchors.has(anchor)) {
      badAnchors++
      o.issue(
        "missing_anchor",
        "minor",
        l.line,
        `The link \`${l.target}\` points at a heading anchor that does not exist`,
        `Use one of the existing anchors${anchors.size > 0 ? ` (e.g. #${[...anchors].slice(0, 3).join(", #")})` : ""} or remove the fragment.`
      )
    }
  }
  o.deductEach(badAnchors, 5, 15, "links to missing heading anchors")
  const ok = resolved.filter((r) => r.status === "ok" && (r.ref.kind !== "name"))
  if (ctx.mode === "file" && pkg) {
    const orphans = orphanFiles(ctx, resolved)
    if (orphans.length > 0) {
      // one finding for all of them: the agent only loads what the artifact points it at
      const named = orphans.slice(0, 5).map((p) => `\`${p}\``).join(", ") + (orphans.length > 5 ? `, and ${orphans.length - 5} more` : "")
      o.issue(
        "unreferenced_file",
        "minor",
        bodyStart(doc),
        orphans.length === 1
          ? `The bundle file ${named} is never referenced, so the agent will not know to load it`
          : `${orphans.length} bundle files are never referenced, so the agent will not know to load them: ${named}`,
        `Mention each where it is needed (e.g. "See [${basename(orphans[0]!)}](${orphans[0]}) for ..."), or remove it.`
      )
    }
    // the converse of a path to a missing file, and as costly: the content is there, and the agent is never sent to it
    o.deduct(saturate(20 * orphans.length, 60), orphans.length > 1 ? `bundle files never referenced (x${orphans.length})` : "a bundle file never referenced")
  }
  if (dangling === 0) o.note(`${ok.length} reference(s) resolve to bundle files`)
  else o.note(`${ok.length} reference(s) resolve`)
  return o.done()
}

/** Bundle files nothing in the artifact leads to (licenses, hidden files and test folders aside). */
export const orphanFiles = (ctx: CheckContext, resolved: ReadonlyArray<ResolvedRef> = resolveRefs(ctx)): Array<string> => {
  const reach = reachable(ctx, resolved)
  const { doc } = ctx
  // a file named in code counts too: `python scripts/x.py` in a block runs it, `x.py` in inline code names it
  const code = [
    ...doc.md.codeBlocks.flatMap((b) => doc.split.lines.slice(b.startLine, b.endLine - 1)),
    ...doc.md.inlineCode.map((c) => c.text)
  ].join("\n")
  const named = (p: string) => {
    const rel = ctx.rootDir === "" ? p : p.slice(ctx.rootDir.length + 1)
    const base = basename(p)
    // a bare file name counts where it is distinctive ("**one_page_treatment_plan.tex**"), or in code
    return doc.text.includes(rel) || (/\.\w+$/.test(base) && ((base.length >= 12 && doc.text.includes(base)) || (base.length >= 5 && code.includes(base))))
  }
  return ctx.bundle.paths.filter(
    (p) =>
      p !== ctx.doc.path &&
      !reach.has(p) &&
      !named(p) &&
      !/(^|\/)(license|licence|copying|notice|readme|changelog)(\.[^/]*)?$/i.test(p) &&
      !/(^|\/)\./.test(p) &&
      !/(^|\/)(evaluations?|evals?|tests?|__tests__)\//i.test(p) &&
      p.startsWith(ctx.rootDir === "" ? "" : `${ctx.rootDir}/`)
  )
}
