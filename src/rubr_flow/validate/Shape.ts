/**
 * Pass 2, the shape: `RubrFlow` (../Format.ts) decoded with every error and no excess property, each
 * schema error turned into `missing_field`, `unknown_field` (with the likely key), `invalid_type`,
 * `invalid_value` or `unsupported_version`.
 */
import { Either, ParseResult, Schema } from "effect"
import { FORMAT_VERSION, Guardrail, RubrFlow } from "../Format.js"
import type { PathSegment } from "../Parse.js"
import { clipLine } from "../Text.js"
import { closest } from "./Closest.js"
import { asRec, field, hasOwn, type Rec, valueAt } from "./Data.js"
import { blockLabel, describeValue, type Draft, issue, label, quote, sentence } from "./Drafts.js"
import { BASE_TYPE, EXPECTED, HINTS, isSection, type Kind, kindOf, ROOT_KEYS, type Section, SECTION_KEYS, SECTION_NOUN, SYNONYMS } from "./Vocabulary.js"

/** Whether `v` is of the base type a kind of value needs (the rest of its rule aside). */
const typeMatches = (v: unknown, base: (typeof BASE_TYPE)[Kind]): boolean => {
  switch (base) {
    case "string":
      return typeof v === "string"
    case "array":
      return Array.isArray(v)
    case "object":
      return asRec(v) !== undefined
    case "boolean":
      return typeof v === "boolean"
    case "number":
      return typeof v === "number"
    case "any":
      return true
  }
}

/** An id made of `s`, to suggest in place of an invalid one. */
const slug = (s: string): string =>
  s.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+|-+$/g, "").slice(0, 80)

const decodeFlow = Schema.decodeUnknownEither(RubrFlow, { errors: "all", onExcessProperty: "error" })
const decodeGuardrailAs = {
  must: Schema.decodeUnknownEither(Guardrail.members[0], { errors: "all", onExcessProperty: "error" }),
  never: Schema.decodeUnknownEither(Guardrail.members[1], { errors: "all", onExcessProperty: "error" })
}

export const versionIssue = (root: Rec): Draft | undefined => {
  if (!hasOwn(root, "rubr_flow")) {
    return issue(
      "unsupported_version",
      ["rubr_flow"],
      `The file does not say its format version: add \`rubr_flow: "${FORMAT_VERSION}"\` as its first line.`,
      "container"
    )
  }
  const v = root["rubr_flow"]
  if (v === FORMAT_VERSION) return undefined
  if (typeof v === "number") {
    return issue(
      "unsupported_version",
      ["rubr_flow"],
      `Write \`rubr_flow: "${FORMAT_VERSION}"\` with the quotes: unquoted, ${v} is read as a number, not as the version "${FORMAT_VERSION}".`
    )
  }
  if (typeof v === "string") {
    return issue(
      "unsupported_version",
      ["rubr_flow"],
      `This validator reads rubr_flow ${FORMAT_VERSION}, and the file says ${JSON.stringify(clipLine(v, 20))}: write \`rubr_flow: "${FORMAT_VERSION}"\` if the file follows version ${FORMAT_VERSION}.`
    )
  }
  return issue("unsupported_version", ["rubr_flow"], `Write \`rubr_flow: "${FORMAT_VERSION}"\` (found ${describeValue(v)}).`)
}

/** A version this validator does not read at all (another major version): nothing else is checked. */
export const isForeignVersion = (v: unknown): boolean => typeof v === "string" && /^\s*v?(\d+)(\.\d+)*\s*$/.test(v) && !/^\s*v?1(\.|\s*$)/.test(v)

/** The key a path ends in, the mapping that holds it, and whose keys belong there (none below a block). */
const keyContext = (path: ReadonlyArray<PathSegment>) => {
  const parentPath = path.slice(0, -1)
  const top = parentPath[0]
  const context: "root" | Section | undefined = parentPath.length === 0 ? "root" : parentPath.length === 2 && isSection(top) ? top : undefined
  return { key: String(path[path.length - 1]), parentPath, context }
}

const unknownFieldIssue = (root: unknown, path: ReadonlyArray<PathSegment>): Draft => {
  const { key, parentPath, context } = keyContext(path)
  const where = parentPath.length === 0 ? "at the top level" : `in ${label(root, parentPath).replace(/^./, (c) => c.toLowerCase())}`
  if (context === undefined) return issue("unknown_field", path, `Unknown key ${quote(key)} ${where}: remove it.`)
  const known = context === "root" ? ROOT_KEYS : SECTION_KEYS[context]
  const normalized = key.toLowerCase().replace(/[\s-]+/g, "_")
  const synonyms = SYNONYMS[context]
  const suggestion = known.includes(normalized)
    ? normalized
    : synonyms !== undefined && hasOwn(synonyms, normalized)
    ? synonyms[normalized]
    : closest(key, known)
  if (suggestion !== undefined && suggestion !== key) {
    return issue("unknown_field", path, `Unknown key ${quote(key)} ${where}: did you mean \`${suggestion}\`?`)
  }
  const elsewhere = [
    ...(ROOT_KEYS.includes(key) && context !== "root" ? ["at the top level"] : []),
    ...(Object.keys(SECTION_KEYS) as Array<Section>)
      .filter((s) => s !== context && SECTION_KEYS[s].includes(key) && key !== "id" && key !== "from")
      .map((s) => `in ${SECTION_NOUN[s] === "input" ? "an" : "a"} ${SECTION_NOUN[s]} (under \`${s}\`)`)
  ]
  if (elsewhere.length > 0) {
    return issue("unknown_field", path, `Unknown key ${quote(key)} ${where}: \`${key}\` belongs ${elsewhere[0]}.`)
  }
  return issue("unknown_field", path, `Unknown key ${quote(key)} ${where}: remove it; the keys here are ${known.join(", ")}.`)
}

const missingFieldIssue = (root: unknown, path: ReadonlyArray<PathSegment>): Draft => {
  const { key, parentPath, context } = keyContext(path)
  const hint = context !== undefined ? HINTS[context][key] : undefined
  const owner = parentPath.length === 0 ? "The document" : label(root, parentPath)
  return issue("missing_field", path, `${owner} has no \`${key}\`: add \`${key}:\`${hint !== undefined ? ` (${hint})` : ""}.`, "container")
}

const valueIssue = (root: unknown, path: ReadonlyArray<PathSegment>): Draft => {
  const kind = kindOf(path)
  const actual = valueAt(root, path)
  const where = label(root, path)
  const typeOk = typeMatches(actual, BASE_TYPE[kind])
  if (!typeOk) {
    if (kind === "document") {
      return issue("not_a_mapping", path, `A rubr_flow file is a YAML mapping that starts with \`rubr_flow: "${FORMAT_VERSION}"\`; this file holds ${describeValue(actual)}.`)
    }
    if (kind === "idList" && typeof actual === "string") {
      return issue("invalid_type", path, `${where} must be a list of ids: write \`[${clipLine(actual, 40)}]\`.`)
    }
    return issue("invalid_type", path, `${where} must be ${EXPECTED[kind]}; found ${describeValue(actual)}.`)
  }
  switch (kind) {
    case "id": {
      const id = String(actual)
      const better = slug(id)
      return issue(
        "invalid_value",
        path,
        `${where} is ${quote(id)}, which is not a valid id: use 1-80 characters of a-z, 0-9, '-' and '_', starting with a letter or digit${better !== "" && /^[a-z0-9]/.test(better) ? ` (e.g. \`${better}\`)` : ""}.`
      )
    }
    case "ref":
      return issue("invalid_value", path, `${where} is ${quote(String(actual))}: write PATH:LINE or PATH:START-END with 1-based line numbers, e.g. \`SKILL.md:12-30\`.`)
    case "name":
      return issue(
        "invalid_value",
        path,
        String(actual).length === 0 ? "`name` is empty: give the procedure a short name." : `\`name\` has ${String(actual).length} characters; keep it to 100.`
      )
    case "count":
      return issue("invalid_value", path, `${where} is ${String(actual)}; it must be ${EXPECTED.count}.`)
    case "hash":
      return issue("invalid_value", path, `${where} is ${quote(String(actual))}; it must be ${EXPECTED.hash}.`)
    case "path":
      return issue("invalid_value", path, `${where} is empty: give the source file's path.`)
    case "evalType":
      return issue("invalid_value", path, `${where} is ${quote(String(actual))}; it must be ${EXPECTED.evalType}.`)
    default:
      return issue("invalid_value", path, `${where} must be ${EXPECTED[kind]}; found ${describeValue(actual)}.`)
  }
}

const toPath = (p: ReadonlyArray<PropertyKey>): Array<PathSegment> =>
  p.map((s) => (typeof s === "number" ? s : typeof s === "string" ? s : String(s)))

const fromFormatterIssues = (
  root: unknown,
  issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>,
  prefix: ReadonlyArray<PathSegment>,
  skip: (path: ReadonlyArray<PathSegment>) => boolean
): Array<Draft> => {
  const out: Array<Draft> = []
  for (const schemaIssue of issues) {
    // optional fields are unions with `undefined`: their second complaint is noise
    if (schemaIssue._tag === "Type" && schemaIssue.message.startsWith("Expected undefined")) continue
    const path = [...prefix, ...toPath(schemaIssue.path)]
    if (skip(path)) continue
    if (path.length === 1 && path[0] === "rubr_flow") continue // versionIssue reports it
    if (schemaIssue._tag === "Missing") out.push(missingFieldIssue(root, path))
    else if (schemaIssue._tag === "Unexpected") out.push(unknownFieldIssue(root, path))
    else out.push(valueIssue(root, path))
  }
  return out
}

/** Guardrails are a union: each item is checked against the member it means (must or never). */
const guardrailItemIssues = (root: unknown, guardrails: ReadonlyArray<unknown>): Array<Draft> => {
  const out: Array<Draft> = []
  guardrails.forEach((item, i) => {
    const path: Array<PathSegment> = ["guardrails", i]
    const r = asRec(item)
    if (r === undefined) {
      out.push(issue("invalid_type", path, `Guardrail #${i + 1} must be a mapping with \`must:\` or \`never:\`; found ${describeValue(item)}.`))
      return
    }
    const hasMust = hasOwn(r, "must")
    const hasNever = hasOwn(r, "never")
    if (hasMust && hasNever) {
      out.push(issue("invalid_value", path, `${sentence(blockLabel(root, "guardrails", i))} has both \`must\` and \`never\`: a guardrail is one or the other; split it in two.`))
      return
    }
    if (!hasMust && !hasNever) {
      const typo = Object.keys(r).find((k) => k !== "id" && k !== "from" && closest(k, ["must", "never"]) !== undefined)
      out.push(
        issue(
          "missing_field",
          [...path, "must"],
          `${sentence(blockLabel(root, "guardrails", i))} has neither \`must\` nor \`never\`: write \`must: <what the agent always does>\` or \`never: <what it never does>\`${typo !== undefined ? ` (is \`${typo}\` meant to be \`${closest(typo, ["must", "never"])}\`?)` : ""}.`,
          "container"
        )
      )
    }
    const result: Either.Either<unknown, ParseResult.ParseError> = hasNever ? decodeGuardrailAs.never(item) : decodeGuardrailAs.must(item)
    if (Either.isLeft(result)) {
      const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
      out.push(
        ...fromFormatterIssues(root, issues, path, (p) =>
          // already reported above: the missing kind key
          !hasMust && !hasNever && p.length === 3 && (p[2] === "must" || p[2] === "never"))
      )
    }
  })
  return out
}

export const shapeIssues = (root: unknown): { readonly drafts: Array<Draft>; readonly flow: RubrFlow | null } => {
  const result = decodeFlow(root)
  if (Either.isRight(result)) return { drafts: [], flow: result.right }
  const r = asRec(root)
  const drafts: Array<Draft> = []
  if (r === undefined) {
    drafts.push(valueIssue(root, []))
    return { drafts, flow: null }
  }
  const version = versionIssue(r)
  if (version !== undefined) drafts.push(version)
  const guardrails = field(r, "guardrails")
  const guardrailItems = Array.isArray(guardrails)
  const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
  drafts.push(...fromFormatterIssues(root, issues, [], (p) => guardrailItems && p[0] === "guardrails" && p.length >= 2))
  if (guardrailItems) drafts.push(...guardrailItemIssues(root, guardrails))
  return { drafts, flow: null }
}
