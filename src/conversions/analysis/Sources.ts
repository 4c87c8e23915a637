/**
 * The analysis of a whole conversion input (`analyzeSources`): every artifact source analysed in path
 * order (file mode: the artifact, resolved against its own folder; bundle mode: every artifact), the
 * paths references may point at, and the source summary the report shows (per file and in total).
 */
import { BundleIndex } from "../../markdown/Document.js"
import { dirname } from "../../markdown/Paths.js"
import type { ConversionInput, ConversionSource } from "../Types.js"
import { analyzeFile } from "./Files.js"
import type { FileAnalysis } from "./Model.js"
import { cmp } from "./Text.js"

export interface SourceSummaryFile {
  readonly path: string
  readonly lines: number
  readonly words: number
  readonly title: string | null
  readonly headings: number
  readonly steps: number
  readonly rules: number
  readonly examples: number
}

export interface SourceSummary {
  readonly mode: "file" | "bundle"
  readonly files: ReadonlyArray<SourceSummaryFile>
  readonly totals: {
    readonly files: number
    readonly lines: number
    readonly words: number
    readonly headings: number
    readonly steps: number
    readonly rules: number
    readonly examples: number
  }
}

export interface SourceAnalysis {
  readonly mode: "file" | "bundle"
  readonly bundleName: string
  /** the artifact sources, converted (file mode: the artifact; bundle mode: every artifact, path order) */
  readonly files: ReadonlyArray<FileAnalysis>
  /** every path of the conversion (artifacts and context), sorted: what references may point at */
  readonly knownPaths: ReadonlyArray<string>
  readonly sourceSummary: SourceSummary
}

const artifactSources = (input: ConversionInput): Array<ConversionSource> => {
  const arts = input.sources.filter((x) => x.role === "artifact")
  return [...(arts.length > 0 ? arts : input.sources)].sort((a, b) => cmp(a.path, b.path))
}

export const analyzeSources = (input: ConversionInput): SourceAnalysis => {
  const knownPaths = [...new Set(input.sources.map((x) => x.path))].sort(cmp)
  const bundle = new BundleIndex(knownPaths)
  const arts = artifactSources(input)
  const rootDir = input.mode === "file" && arts.length > 0 ? dirname(arts[0]!.path) : ""
  const files = arts.map((src) => analyzeFile(src, bundle, input.mode === "file" ? rootDir : dirname(src.path)))
  const summaryFiles: Array<SourceSummaryFile> = files.map((f) => ({
    path: f.path,
    lines: f.lines,
    words: f.words,
    title: f.title?.text ?? f.frontmatter.name,
    headings: f.outline.length,
    steps: f.procedures.reduce((n, p) => n + p.steps.length, 0),
    rules: f.rules.length,
    examples: f.examples.length
  }))
  const sum = (k: "lines" | "words" | "headings" | "steps" | "rules" | "examples") => summaryFiles.reduce((n, f) => n + f[k], 0)
  return {
    mode: input.mode,
    bundleName: input.bundleName,
    files,
    knownPaths,
    sourceSummary: {
      mode: input.mode,
      files: summaryFiles,
      totals: {
        files: summaryFiles.length,
        lines: sum("lines"),
        words: sum("words"),
        headings: sum("headings"),
        steps: sum("steps"),
        rules: sum("rules"),
        examples: sum("examples")
      }
    }
  }
}
