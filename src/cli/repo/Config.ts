/**
 * The repository's own settings for `rubr check`: `rubr.config.json` or `.rubr.yaml` at its root.
 *
 *   {
 *     "include": ["skills/**", "AGENTS.md"],          // only these (default: everything)
 *     "exclude": ["skills/experimental/**"],          // never these
 *     "bundlePrefix": "acme/",                        // bundle names: prefix + path
 *     "minScore": 70, "failOn": "major",              // the gates of every artifact…
 *     "overrides": [{ "files": ["skills/legacy/**"], "minScore": 50, "failOn": "critical" }],  // …or of some
 *     "rules": { "SK-LEN-OVER-BUDGET": "off" }        // findings of these rules are left out
 *   }
 *
 * Every key is checked: an unknown key, a bad glob, an unknown rule id or a value out of range is a
 * usage error naming the file and the key (exit 2), before any request.
 */
import { Either, ParseResult, Schema } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import picomatch from "picomatch"
import * as Yaml from "yaml"
import { isRuleId } from "../../review/rules/Rules.js"

export const CONFIG_FILES = ["rubr.config.json", ".rubr.yaml"] as const

const FailOn = Schema.Literal("critical", "major", "minor", "none")
const MinScore = Schema.Int.pipe(Schema.between(0, 100))
const Globs = Schema.Array(Schema.String.pipe(Schema.minLength(1)))

const ConfigFile = Schema.Struct({
  $schema: Schema.optional(Schema.String),
  include: Schema.optional(Globs),
  exclude: Schema.optional(Globs),
  bundlePrefix: Schema.optional(Schema.String.pipe(Schema.maxLength(60))),
  minScore: Schema.optional(MinScore),
  failOn: Schema.optional(FailOn),
  overrides: Schema.optional(Schema.Array(Schema.Struct({
    files: Globs.pipe(Schema.minItems(1)),
    minScore: Schema.optional(MinScore),
    failOn: Schema.optional(FailOn)
  }))),
  rules: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Literal("off", "on") }))
})
type ConfigFile = Schema.Schema.Type<typeof ConfigFile>

export interface Gates {
  readonly minScore?: number | undefined
  readonly failOn?: "critical" | "major" | "minor" | "none" | undefined
}

export interface RepoConfig {
  /** the file it was read from, repository-relative, or undefined when there is none */
  readonly file: string | undefined
  readonly bundlePrefix: string
  /** whether a repository-relative path is in (include, exclude) */
  readonly selects: (path: string) => boolean
  /** the gates the configuration sets for an artifact's path (the last matching override wins) */
  readonly gatesFor: (path: string) => Gates
  /** rule ids whose findings are left out */
  readonly rulesOff: ReadonlySet<string>
}

export class ConfigProblem extends Error {}

const GLOB_OPTIONS = { dot: true, strictBrackets: true } as const

const compileGlobs = (file: string, key: string, globs: ReadonlyArray<string>) =>
  globs.map((glob) => {
    try {
      // `skills/` means everything under it, as in .gitignore
      const pattern = glob.endsWith("/") ? `${glob}**` : glob
      const matches = picomatch(pattern, GLOB_OPTIONS)
      // a folder pattern also selects what is inside it (`skills/pdf` → `skills/pdf/SKILL.md`)
      const inside = picomatch(`${pattern.replace(/\/\*\*$/, "")}/**`, GLOB_OPTIONS)
      return (path: string) => matches(path) || inside(path)
    } catch (error) {
      throw new ConfigProblem(`${file}: ${key}: ${JSON.stringify(glob)} is not a glob (${error instanceof Error ? error.message : String(error)})`)
    }
  })

const anyOf = (tests: ReadonlyArray<(path: string) => boolean>) => (path: string) => tests.some((test) => test(path))

/** The default: everything, the service's gates, no prefix. */
export const defaultConfig: RepoConfig = {
  file: undefined,
  bundlePrefix: "",
  selects: () => true,
  gatesFor: () => ({}),
  rulesOff: new Set()
}

const decode = Schema.decodeUnknownEither(ConfigFile, { errors: "all", onExcessProperty: "error" })

/** Checks and compiles a parsed configuration; `file` names it in every message. */
export const compileConfig = (file: string, raw: unknown): RepoConfig => {
  const parsed = decode(raw)
  if (Either.isLeft(parsed)) {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(parsed.left)
    const first = issues[0]
    const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : ""
    const message = first?.message.replace(/^is unexpected, expected: .*/, "is not a setting rubr knows") ?? "is not valid"
    throw new ConfigProblem(`${file}: ${where}${message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`)
  }
  const config: ConfigFile = parsed.right
  const include = config.include ? anyOf(compileGlobs(file, "include", config.include)) : () => true
  const exclude = config.exclude ? anyOf(compileGlobs(file, "exclude", config.exclude)) : () => false
  const overrides = (config.overrides ?? []).map((o, i) => ({ test: anyOf(compileGlobs(file, `overrides.${i}.files`, o.files)), o }))
  const rulesOff = new Set<string>()
  for (const [id, state] of Object.entries(config.rules ?? {})) {
    if (!isRuleId(id)) throw new ConfigProblem(`${file}: rules.${id}: no rule has this id (docs/rubrics.md lists them)`)
    if (state === "off") rulesOff.add(id)
  }
  return {
    file,
    bundlePrefix: config.bundlePrefix ?? "",
    selects: (path) => include(path) && !exclude(path),
    gatesFor: (path) => {
      let gates: Gates = { minScore: config.minScore, failOn: config.failOn }
      for (const { test, o } of overrides) {
        if (test(path)) gates = { minScore: o.minScore ?? gates.minScore, failOn: o.failOn ?? gates.failOn }
      }
      return gates
    },
    rulesOff
  }
}

/** Reads the configuration at `root`, if any. Two configuration files at once is a problem too. */
export const loadConfig = (root: string): RepoConfig => {
  const present = CONFIG_FILES.filter((name) => Fs.existsSync(Path.join(root, name)))
  if (present.length === 0) return defaultConfig
  if (present.length > 1) throw new ConfigProblem(`${present.join(" and ")}: keep one configuration file at the repository root`)
  const file = present[0]!
  let text: string
  try {
    text = Fs.readFileSync(Path.join(root, file), "utf8")
  } catch (error) {
    throw new ConfigProblem(`${file}: cannot be read (${error instanceof Error ? error.message : String(error)})`)
  }
  let raw: unknown
  try {
    raw = file.endsWith(".json") ? JSON.parse(text) : Yaml.parse(text)
  } catch (error) {
    throw new ConfigProblem(`${file}: not valid ${file.endsWith(".json") ? "JSON" : "YAML"} (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`)
  }
  return compileConfig(file, raw ?? {})
}

/**
 * The repository root: the nearest folder above `cwd` (itself included) holding a configuration file
 * or `.git`; else `cwd`.
 */
export const findRoot = (cwd: string): string => {
  for (let dir = Path.resolve(cwd); ; dir = Path.dirname(dir)) {
    if (CONFIG_FILES.some((name) => Fs.existsSync(Path.join(dir, name))) || Fs.existsSync(Path.join(dir, ".git"))) return dir
    if (dir === Path.dirname(dir)) return Path.resolve(cwd)
  }
}
