/**
 * The rubric registry.
 *
 * Versioning: a rubric is `key` + `version`. Built-in keys are the artifact types (`skill`, `agent`,
 * `prompt`, `command`, `workflow`, `rubr_flow`), versions are ISO dates (`2026-11-01`; `2026-11-29.2`
 * for a second one fixed that day, which still sorts after it); audit runs record both.
 * `getRubric("skill")` is the latest version, `getRubric("skill", "2026-11-01")` or
 * `getRubric("skill@2026-11-01")` a pinned one.
 *
 * Custom rubrics (a bundle's `customRubric`): criteria chosen from the engine's catalogue
 * (src/review/rubrics/Criteria.ts) with the bundle's own weights. Keys outside the catalogue are
 * rejected (400 validation_failed naming the key and the allowed keys) because the mock could not
 * score them and a silently ignored criterion would make scores lie. A custom rubric's key defaults
 * to `custom`, its version to `custom-` + the first 12 hex digits of the SHA-256 of its canonical
 * criteria, so a run is tied to the exact criteria it was scored with.
 *
 * Which rubric an audit uses (`resolveRubric`): the request's `rubricKey`; else the bundle's
 * `customRubric` when it is non-empty; else `settings.defaultRubricKey`; else the default for the
 * artifact type. The key `custom` (or the custom rubric's own key) selects the bundle's custom rubric.
 */
import { createHash } from "node:crypto"
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import { ValidationFailed } from "../../domain/Errors.js"
import { ArtifactType } from "../../domain/Artifact.js"
import { type Rubric } from "../Types.js"
import { CRITERIA, CRITERION_KEYS, isCriterionKey } from "./Criteria.js"
import { BUILT_IN_RUBRICS } from "./Rubrics.js"

export const CUSTOM_RUBRIC_KEY = "custom"

/** Every rubric, all versions, ordered by key then version. */
export const listRubrics = (): ReadonlyArray<Rubric> =>
  [...BUILT_IN_RUBRICS].sort((a, b) => cmp(a.key, b.key) || cmp(a.version, b.version))

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export const defaultRubricKeyFor = (artifactType: ArtifactType): string => artifactType

/** `key`, `key@version`, or `key` with an explicit version; the latest version when none is given. */
export const getRubric = (key: string, version?: string): Option.Option<Rubric> => {
  let k = key.trim()
  let v = version?.trim()
  const at = k.indexOf("@")
  if (at >= 0) {
    v = v ?? k.slice(at + 1)
    k = k.slice(0, at)
  }
  const candidates = BUILT_IN_RUBRICS.filter((r) => r.key === k)
  if (v !== undefined && v !== "") return Option.fromNullable(candidates.find((r) => r.version === v))
  return Option.fromNullable([...candidates].sort((a, b) => cmp(b.version, a.version))[0])
}

export const isBuiltInRubricKey = (key: string): boolean => Option.isSome(getRubric(key))

const Slug = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    message: () => "must be 1-64 characters of lowercase letters, digits, '-' or '_'"
  })
)

export const CustomCriterion = Schema.Struct({
  key: Schema.String.pipe(
    Schema.filter((k) => isCriterionKey(k) || `unknown criterion key '${k}'; allowed: ${CRITERION_KEYS.join(", ")}`)
  ),
  weight: Schema.Number.pipe(
    Schema.filter((w) => (Number.isFinite(w) && w > 0 && w <= 100) || "must be a number greater than 0 and at most 100")
  ),
  label: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(500)))
})

export const CustomRubric = Schema.Struct({
  key: Schema.optional(Slug),
  version: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40))),
  title: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  artifactType: Schema.optional(ArtifactType),
  criteria: Schema.Array(CustomCriterion).pipe(
    Schema.minItems(1),
    Schema.maxItems(CRITERION_KEYS.length),
    Schema.filter((cs) => {
      const seen = new Set<string>()
      for (const c of cs) {
        if (seen.has(c.key)) return `duplicate criterion key '${c.key}'`
        seen.add(c.key)
      }
      return true
    })
  )
})
export type CustomRubric = typeof CustomRubric.Type

/** true for `{}`, null and undefined: a bundle without a custom rubric. */
export const isEmptyCustomRubric = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === "object" && Object.keys(value as object).length === 0)

/**
 * Validates a bundle's `customRubric` and turns it into a Rubric. Fails with `validation_failed`
 * details `{path: "customRubric.criteria.0.key", message}`.
 */
export const decodeCustomRubric = (
  value: unknown,
  fallbackArtifactType: ArtifactType
): Either.Either<Rubric, ValidationFailed> => {
  const decoded = Schema.decodeUnknownEither(CustomRubric, { errors: "all", onExcessProperty: "error" })(value)
  if (Either.isLeft(decoded)) {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
    const details = issues.map((i) => ({
      path: ["customRubric", ...i.path.map(String)].join("."),
      message: i.message
    }))
    return Either.left(
      ValidationFailed.of(`customRubric is invalid: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, details)
    )
  }
  const c = decoded.right
  const key = c.key ?? CUSTOM_RUBRIC_KEY
  if (isBuiltInRubricKey(key)) {
    return Either.left(ValidationFailed.at("customRubric.key", `'${key}' is a built-in rubric key; choose another`))
  }
  const criteria = c.criteria.map((x) => {
    const d = CRITERIA[x.key as keyof typeof CRITERIA]
    return { key: x.key, label: x.label ?? d.label, weight: x.weight, description: x.description ?? d.description }
  })
  const canonical = JSON.stringify(criteria.map((x) => [x.key, x.weight, x.label, x.description]))
  const version = c.version ?? `custom-${createHash("sha256").update(canonical).digest("hex").slice(0, 12)}`
  return Either.right({
    key,
    version,
    artifactType: c.artifactType ?? fallbackArtifactType,
    title: c.title ?? "Custom rubric",
    criteria
  })
}

export interface RubricSelection {
  readonly artifactType: ArtifactType
  /** the audit request's `rubricKey` (may be `key@version`) */
  readonly rubricKey?: string | null | undefined
  /** the bundle's `customRubric` (`{}` when none) */
  readonly customRubric?: unknown
  /** the bundle's `settings` (`defaultRubricKey` is read from it) */
  readonly settings?: Readonly<Record<string, unknown>> | null | undefined
}

/** The rubric an audit uses; see the module comment for the order. Fails with 400 validation_failed. */
export const resolveRubric = (selection: RubricSelection): Effect.Effect<Rubric, ValidationFailed> =>
  Effect.suspend(() => {
    const hasCustom = !isEmptyCustomRubric(selection.customRubric)
    const custom = () => decodeCustomRubric(selection.customRubric, selection.artifactType)
    const byKey = (key: string, path: string): Effect.Effect<Rubric, ValidationFailed> => {
      if (hasCustom) {
        const customKey =
          typeof selection.customRubric === "object" && selection.customRubric !== null
            ? (selection.customRubric as Record<string, unknown>)["key"]
            : undefined
        if (key === CUSTOM_RUBRIC_KEY || key === customKey) return custom()
      }
      return Option.match(getRubric(key), {
        onNone: () =>
          Effect.fail(
            ValidationFailed.at(
              path,
              `unknown rubric '${key}'; available: ${[...new Set(BUILT_IN_RUBRICS.map((r) => r.key))].join(", ")}${
                hasCustom ? `, ${CUSTOM_RUBRIC_KEY}` : ""
              }`
            )
          ),
        onSome: Effect.succeed
      })
    }
    if (selection.rubricKey) return byKey(selection.rubricKey, "rubricKey")
    if (hasCustom) return custom()
    const d = selection.settings?.["defaultRubricKey"]
    if (typeof d === "string" && d !== "") return byKey(d, "settings.defaultRubricKey")
    return byKey(defaultRubricKeyFor(selection.artifactType), "artifactType")
  })
