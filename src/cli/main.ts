/**
 * The `rubr` CLI (bin/rubr.js runs the bundle built from this file, dist/cli/main.js). Commands are
 * defined with @effect/cli; each loads what it needs (the SDK, the validator) when it runs, so
 * `rubr --help` stays fast. The exit code is the contract's: see Failure.ts.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import { Cause, Console, Effect, Exit as EffectExit, Layer, Option } from "effect"
import { VERSION } from "../Version.js"
import { commands } from "./commands/index.js"
import { described } from "./Shared.js"
import { CliFailure, Exit } from "./Failure.js"
import { lastExitCode } from "./Run.js"

const rubr = Command.make("rubr").pipe(
  Command.withDescription(
    described(
      "Review and improve LLM instruction artifacts (skills, AGENTS.md, commands, prompts) with the rubr service. " +
        "SERVICE_BASE_URL and SERVICE_API_KEY configure every command; `rubr COMMAND --help` explains each.",
      "rubr check --list",
      "rubr check . --min-score 70 --fail-on major",
      "rubr validate flows/"
    )
  ),
  Command.withSubcommands(commands)
)

const cli = Command.run(rubr, { name: "rubr", version: VERSION })

const ANSI = /\x1b\[[0-9;]*m/g

/**
 * @effect/cli writes its help and its usage errors in colour through the Console service: without a
 * terminal, or with NO_COLOR, the escape codes are taken out.
 */
/**
 * @effect/cli puts the type's own blurb above every flag's description ("A user-defined piece of
 * text.", "An integer.") and a footnote under it ("This setting is optional."); each flag has a
 * sentence of its own here, so those paragraphs are taken out of the help.
 */
const BLURBS = /\n\n {2}(?:(?:\x1b\[[0-9;]*m)*)(?:A user-defined piece of text\.|An integer\.|A true or false value\.|One of the following: [^\n]*|This setting is optional\.|This argument is optional\.|An existing file\.|An existing directory\.|A file system path\.)(?:(?:\x1b\[[0-9;]*m)*)(?=\n)/g

const tidyHelp = (a: unknown) => (typeof a === "string" ? a.replace(BLURBS, "") : a)

const plainConsole = (console: Console.Console, stdoutColour: boolean, stderrColour: boolean): Console.Console => {
  const strip = (colour: boolean) => (args: ReadonlyArray<unknown>) => (colour ? args : args.map((a) => (typeof a === "string" ? a.replace(ANSI, "") : a))).map(tidyHelp)
  return {
    ...console,
    log: (...args) => console.log(...strip(stdoutColour)(args)),
    error: (...args) => console.error(...strip(stderrColour)(args)),
    unsafe: console.unsafe
  }
}

const write = (line: string) => process.stderr.write(line.endsWith("\n") ? line : `${line}\n`)

export const main = (argv: ReadonlyArray<string>) =>
  cli(argv).pipe(
    Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer, CliConfig.layer({ showBuiltIns: false }))),
    (effect) =>
      Effect.flatMap(Console.consoleWith(Effect.succeed), (console) => {
        const noColor = (process.env.NO_COLOR ?? "") !== ""
        return Effect.withConsole(effect, plainConsole(console, !noColor && process.stdout.isTTY === true, !noColor && process.stderr.isTTY === true))
      }),
    Effect.runPromiseExit
  ).then((exit) => {
    if (EffectExit.isSuccess(exit)) return lastExitCode
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) {
      const error = failure.value
      if (error instanceof CliFailure) {
        write(`rubr: ${error.message}`)
        return error.exitCode
      }
      // a bad flag or argument: @effect/cli has printed what was wrong
      if (ValidationError.isValidationError(error)) return Exit.usage
    }
    write(`rubr: unexpected failure: ${Cause.pretty(exit.cause)}`)
    return Exit.unavailable
  })

// a reader that stops early (`rubr check --list | head`) is not a failure
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0)
  throw error
})

main(process.argv).then((code) => {
  process.exitCode = code
})
