/**
 * `rubr check [PATH...]`: flags in, `check` (src/cli/check/Check.ts) does the rest. Over one skill
 * folder it syncs, audits and judges as it always did; over a repository it finds every artifact,
 * quotes the whole run, audits them a few at a time and gives one verdict per artifact and one
 * overall.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import type { FailOn } from "../reports/Model.js"
import { run } from "../Run.js"
import { described, integerOption } from "../Shared.js"
import { globalOptions } from "../Settings.js"

const paths = Args.text({ name: "PATH" }).pipe(
  Args.withDescription(
    "A skill folder, a repository (or a folder in one) or an artifact file to check; several may be given. Default: the current folder."
  ),
  Args.repeated
)

export const checkOptions = {
  bundle: Options.text("bundle").pipe(
    Options.withDescription("The bundle to sync one artifact into, by name or id (default: the artifact's path in the repository); created when no active bundle has that name."),
    Options.optional
  ),
  minScore: integerOption("min-score", { min: 0, max: 100 }).pipe(
    Options.withDescription("Fail an artifact whose overall score is below this, 0-100 (default: the configuration's, else 0)."),
    Options.optional
  ),
  failOn: Options.choice("fail-on", ["critical", "major", "minor", "none"]).pipe(
    Options.withDescription("Fail an artifact with a finding of this severity or worse; none never fails on findings (default: the configuration's, else critical)."),
    Options.optional
  ),
  baseline: Options.text("baseline").pipe(
    Options.withDescription("Also eval a baseline against the new version of one artifact and fail on a regression: a version number of its main file, a file version id, or a local file."),
    Options.optional
  ),
  rubric: Options.text("rubric").pipe(Options.withDescription("The rubric key to audit with (default: the bundle's, else the artifact type's)."), Options.optional),
  force: Options.boolean("force").pipe(Options.withDescription("Run new audits even where an identical one exists (spends credits again).")),
  prune: Options.boolean("prune").pipe(Options.withDescription("Also delete the bundle files that the local folder no longer has.")),
  timeout: integerOption("timeout", { min: 1 }).pipe(Options.withDescription("Seconds to wait for each audit before giving up (exit 5)."), Options.withDefault(600)),
  list: Options.boolean("list").pipe(Options.withDescription("Print the artifacts found and the bundle each maps to, then stop; makes no request and needs no key.")),
  maxCredits: integerOption("max-credits", { min: 0 }).pipe(
    Options.withDescription("Stop before starting anything when the quote for the whole run is above this many credits (exit 4)."),
    Options.optional
  ),
  concurrency: integerOption("concurrency", { min: 1, max: 32 }).pipe(Options.withDescription("How many audits run at once, 1-32 (syncs, estimates and reused audits are read 16 at a time)."), Options.withDefault(4)),
  changedSince: Options.text("changed-since").pipe(
    Options.withDescription("Check only the artifacts whose files differ from this git ref (a pull request's base, e.g. origin/main); needs git."),
    Options.optional
  ),
  fix: Options.boolean("fix").pipe(
    Options.withDescription("Write each audit's improved files back into the working tree (only files it rewrote, never a file that changed since it was uploaded).")
  ),
  diff: Options.boolean("diff").pipe(Options.withDescription("Print each audit's improved files as a unified diff instead of writing them (coloured on a terminal).")),
  noCache: Options.boolean("no-cache").pipe(
    Options.withDescription(
      "Neither read nor write what earlier runs on this machine learnt (RUBR_CACHE_DIR, else ~/.cache/rubr): every artifact is synced and its audit read again."
    )
  )
}

export const check = Command.make("check", { ...globalOptions, ...checkOptions, paths }, (flags) =>
  run("check", flags, (context) =>
    Effect.flatMap(Effect.promise(() => import("../check/Check.js")), ({ check }) =>
      check(context, {
        paths: flags.paths,
        bundle: Option.getOrUndefined(flags.bundle),
        minScore: Option.getOrUndefined(flags.minScore),
        failOn: Option.getOrUndefined(flags.failOn) as FailOn | undefined,
        baseline: Option.getOrUndefined(flags.baseline),
        rubric: Option.getOrUndefined(flags.rubric),
        force: flags.force,
        prune: flags.prune,
        timeout: flags.timeout,
        list: flags.list,
        maxCredits: Option.getOrUndefined(flags.maxCredits),
        concurrency: flags.concurrency,
        changedSince: Option.getOrUndefined(flags.changedSince),
        fix: flags.fix,
        diff: flags.diff,
        cache: !flags.noCache
      })), ["text", "json", "junit", "sarif", "codeclimate"])).pipe(
  Command.withDescription(
    described(
      "The remote test for CI. Over one skill folder: sync it into a bundle, audit it (and eval it against --baseline), judge the gates. " +
        "Over a repository: find every skill folder, AGENTS.md/CLAUDE.md, command, prompt and rubr_flow file (honouring .gitignore and rubr.config.json), " +
        "quote the whole run, audit a few at a time, and give one verdict per artifact and one overall. Exit 0 passed, 1 failed.",
      "rubr check skills/deploy-preview --min-score 70 --fail-on major",
      "rubr check --list",
      "rubr check . --changed-since origin/main --max-credits 500 --format sarif > rubr.sarif",
      "rubr check skills/ --diff"
    )
  )
)
