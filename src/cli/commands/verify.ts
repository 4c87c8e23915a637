/** `rubr verify FILE`: a proof report export's signature, checked offline with the service's own function. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as Fs from "node:fs"
import { Exit, usage } from "../Failure.js"
import { run } from "../Run.js"
import { described } from "../Shared.js"
import { globalOptions } from "../Settings.js"

const readJson = (file: string, what: string) =>
  Effect.try({
    try: () => JSON.parse(Fs.readFileSync(file, "utf8")) as unknown,
    catch: (error) => usage(`${what} ${file} is not a readable JSON file: ${error instanceof Error ? error.message : String(error)}`)
  })

export const verify = Command.make(
  "verify",
  {
    ...globalOptions,
    file: Args.file({ name: "FILE", exists: "yes" }).pipe(Args.withDescription("A proof report's export document (rubr proof export, or GET …/proof-reports/{id}/export).")),
    keys: Options.file("keys", { exists: "yes" }).pipe(
      Options.withDescription("A JWKS file with the public keys to check against (default: fetched from the service's /signing-keys)."),
      Options.optional
    )
  },
  (flags) =>
    run("verify", flags, ({ settings, output }) =>
      Effect.gen(function*() {
        const document = yield* readJson(flags.file, "The export")
        let jwks: unknown
        if (Option.isSome(flags.keys)) jwks = yield* readJson(flags.keys.value, "The key set")
        else {
          const { makeRemote } = yield* Effect.promise(() => import("../Remote.js"))
          const remote = yield* makeRemote(settings, output, { needsKey: false })
          jwks = yield* remote.call("signingKeys", "signingKeys", undefined)
        }
        if (settings.dryRun) return
        if (typeof jwks !== "object" || jwks === null || !Array.isArray((jwks as { keys?: unknown }).keys)) {
          return yield* Effect.fail(usage("The key set is not a JWKS ({\"keys\": [...]})."))
        }
        const { verifyExport } = yield* Effect.promise(() => import("../../signing/Document.js"))
        const result = yield* Effect.promise(() => verifyExport(document, jwks as { keys: ReadonlyArray<never> }))
        const payload = (document as { payload?: Record<string, any> }).payload
        const c = output.colors
        return {
          exitCode: result.valid ? Exit.passed : Exit.failed,
          json: () => ({ ...result, reportId: payload?.reportId ?? null }),
          text: () =>
            [
              payload?.source && payload?.candidate
                ? `report ${payload.reportId}: ${payload.source.path} v${payload.source.versionNumber} (${payload.source.contentHash}) → ${payload.candidate.path} v${payload.candidate.versionNumber} (${payload.candidate.contentHash})`
                : "",
              `${result.valid ? c.green("VALID") : c.red("INVALID")}: ${result.reason}`
            ].filter((l) => l !== "").join("\n")
        }
      }))
).pipe(Command.withDescription(described("Check a proof report export's signature (keys from --keys, or the service's /signing-keys). Exit 0 when it holds, 1 when not.", "rubr verify proof.json --keys keys.json")))
