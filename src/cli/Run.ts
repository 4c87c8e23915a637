/**
 * What every command shares: its global flags resolved, the formats it can print, and its result
 * printed as the format asks (text for people; one JSON, JUnit or SARIF document). A command answers
 * a `Result` or fails with a `CliFailure`; the exit code is set here, never by `process.exit`, so
 * stdout drains.
 */
import { Effect } from "effect"
import { CliFailure, Exit, type ExitCode, usage } from "./Failure.js"
import { makeOutput, type Output } from "./Output.js"
import { type Format, type GlobalFlags, resolveSettings, type Settings } from "./Settings.js"

export interface Result {
  /** 0 unless the command completed and its checks failed (1) */
  readonly exitCode?: ExitCode
  readonly text: () => string
  readonly json: () => unknown
  readonly junit?: () => string
  readonly sarif?: () => unknown
  /** GitLab's Code Quality report */
  readonly codeclimate?: () => unknown
}

export interface Context {
  readonly settings: Settings
  readonly output: Output
}

/** The exit code of the last command: main.ts hands it to the process. */
export let lastExitCode: ExitCode = Exit.passed

export const setExitCode = (code: ExitCode) => {
  lastExitCode = code
}

export const run = (
  name: string,
  flags: GlobalFlags,
  body: (context: Context) => Effect.Effect<Result | void, CliFailure>,
  formats: ReadonlyArray<Format> = ["text", "json"]
): Effect.Effect<void, CliFailure> =>
  Effect.gen(function*() {
    const settings = yield* Effect.try({ try: () => resolveSettings(flags), catch: (e) => (e instanceof CliFailure ? e : usage(String(e))) })
    if (!formats.includes(settings.format)) {
      return yield* Effect.fail(usage(`rubr ${name} prints ${formats.join(" or ")}, not --format ${settings.format}.`))
    }
    const output = makeOutput(settings)
    const result = yield* body({ settings, output })
    // a dry run prints its requests and nothing else
    if (settings.dryRun || result === undefined) return
    const render: Record<Format, (() => unknown) | undefined> = {
      text: result.text,
      json: () => JSON.stringify(result.json(), null, 2),
      junit: result.junit,
      sarif: result.sarif && (() => JSON.stringify(result.sarif!(), null, 2)),
      codeclimate: result.codeclimate && (() => JSON.stringify(result.codeclimate!(), null, 2))
    }
    const text = render[settings.format]!() as string
    if (text !== "") output.result(text)
    setExitCode(result.exitCode ?? Exit.passed)
  })
