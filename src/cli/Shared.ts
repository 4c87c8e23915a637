/** Pieces several area commands share: the `--bundle` option, `--detach`, a remote with its bundle, small tables. */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import { Effect, Schema } from "effect"
import type { CliFailure } from "./Failure.js"
import type { Context } from "./Run.js"

export const bundleOption = Options.text("bundle").pipe(Options.withAlias("b"), Options.withDescription("The bundle to act on, by name or id."))

/**
 * An integer flag and its range in one place: @effect/cli checks it against the schema as it parses
 * (a value out of range is a usage error, exit 2, before anything runs) and the help names the range.
 */
export const integerOption = (name: string, range: { readonly min: number; readonly max?: number }) =>
  Options.integer(name).pipe(
    Options.withSchema(
      Schema.Int.pipe(
        range.max === undefined
          ? Schema.greaterThanOrEqualTo(range.min, { message: () => `--${name} is ${range.min} or more` })
          : Schema.between(range.min, range.max, { message: () => `--${name} is ${range.min}-${range.max}` })
      )
    )
  )

export const detachOption = Options.boolean("detach").pipe(Options.withDescription("Start the job and print its id without waiting for it to end."))

/** A remote and the bundle `ref` names (never created here). */
export const withBundle = (context: Context, ref: string) =>
  Effect.gen(function*() {
    const { makeRemote } = yield* Effect.promise(() => import("./Remote.js"))
    const { resolveBundle } = yield* Effect.promise(() => import("./Sync.js"))
    const remote = yield* makeRemote(context.settings, context.output)
    const bundle = yield* resolveBundle(remote, ref, { create: false })
    return { remote, bundle }
  })

export const withRemote = (context: Context) =>
  Effect.flatMap(Effect.promise(() => import("./Remote.js")), ({ makeRemote }) => makeRemote(context.settings, context.output))

/** Columns padded to their widest cell. */
export const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  if (rows.length === 0) return ""
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)))
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n")
}

export const date = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().replace("T", " ").slice(0, 16) : "-")

export type Body<A> = Effect.Effect<A, CliFailure>

/** A command's help: what it does, then examples (each on its own line). */
export const described = (text: string, ...examples: ReadonlyArray<string>): HelpDoc.HelpDoc =>
  HelpDoc.blocks([HelpDoc.p(text), HelpDoc.p(examples.length === 1 ? "Example:" : "Examples:"), ...examples.map((e) => HelpDoc.p(`  ${e}`))])
