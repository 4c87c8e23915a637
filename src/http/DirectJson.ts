/**
 * Success responses written straight as JSON, for the hottest routes: the file read and the version list,
 * and the upload and the new version, which answer with what they just wrote.
 *
 * HttpApi encodes whatever a handler returns with the endpoint's success schema: an effectful Schema
 * parse that checks every refinement again (UUID patterns, integers) before the JSON is written, about
 * 40 µs of CPU on the file read (docs/performance.md). For a schema built only from structs, arrays,
 * unions, literals, primitives, their refinements and `Schema.Date`, that encoding is exactly what
 * `JSON.stringify` does to the value itself (`Date#toJSON` is `toISOString`). Only the re-checks of data
 * this service just built from its own rows are skipped. `directJson(schema)` verifies the schema is of
 * that kind once, when the route module loads, and throws otherwise, so a transformation added later
 * cannot silently change the wire format. The endpoint still declares the same schema, so the OpenAPI
 * document and the types are unchanged. A handler returning an HttpServerResponse bypasses the encode.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Schema, SchemaAST as AST } from "effect"
import { ok } from "./Envelope.js"

/** The String → Date transformation inside `Schema.Date` (under its validDate refinement). */
const dateTransformation = (() => {
  const ast = Schema.Date.ast
  if (!AST.isRefinement(ast) || !AST.isTransformation(ast.from)) throw new Error("unexpected Schema.Date shape")
  return ast.from.transformation
})()

/** Why `ast` is not encoded as JSON.stringify encodes its values, or undefined when it is. */
export const notDirectJson = (ast: AST.AST, seen: Set<AST.AST> = new Set()): string | undefined => {
  if (seen.has(ast)) return undefined
  seen.add(ast)
  const all = (asts: ReadonlyArray<AST.AST>) => {
    for (const member of asts) {
      const problem = notDirectJson(member, seen)
      if (problem !== undefined) return problem
    }
    return undefined
  }
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UnknownKeyword":
    case "UndefinedKeyword":
    case "Literal":
    case "Enums":
    case "TemplateLiteral":
      return undefined
    case "Refinement":
      return notDirectJson(ast.from, seen)
    case "Suspend":
      return notDirectJson(ast.f(), seen)
    case "Union":
      return all(ast.types)
    case "TupleType":
      return all([...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)])
    case "TypeLiteral":
      return all([...ast.propertySignatures.map((p) => p.type), ...ast.indexSignatures.map((i) => i.type)])
    case "Transformation":
      return ast.transformation === dateTransformation ? undefined : `a transformation (${String(ast)})`
    default:
      return `a ${ast._tag}`
  }
}

/**
 * A responder for routes whose success body is `Envelope(schema)`: it writes `{data, requestId}` as JSON
 * directly, with the endpoint's success `status` (200 unless given). Throws at definition time when
 * `schema` encodes differently from JSON.stringify.
 */
export const directJson = <S extends Schema.Schema.Any>(schema: S, options?: { readonly status?: number }) => {
  const problem = notDirectJson(schema.ast)
  if (problem !== undefined) throw new Error(`directJson: the schema contains ${problem}; use ok() for it`)
  return (data: Schema.Schema.Type<S>): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
    Effect.map(ok(data), (envelope) => HttpServerResponse.unsafeJson(envelope, options))
}
