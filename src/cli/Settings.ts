/**
 * The global flags every command takes (after or before its own), and what they resolve to:
 * `--base-url` (or SERVICE_BASE_URL), `--api-key` (or SERVICE_API_KEY), `--format`, `--dry-run`.
 */
import * as Options from "@effect/cli/Options"
import { Option } from "effect"
import { usage } from "./Failure.js"

export const FORMATS = ["text", "json", "junit", "sarif", "codeclimate"] as const
export type Format = (typeof FORMATS)[number]

export const DEFAULT_BASE_URL = "http://127.0.0.1:3000/api/v1"

export const globalOptions = {
  baseUrl: Options.text("base-url").pipe(
    Options.withDescription(`The service to talk to, with or without /api/v1 (default: SERVICE_BASE_URL, else ${DEFAULT_BASE_URL}).`),
    Options.optional
  ),
  apiKey: Options.text("api-key").pipe(
    Options.withDescription("The API key (rubr_…) to send (default: SERVICE_API_KEY; prefer the variable, flags show in process lists)."),
    Options.optional
  ),
  format: Options.choice("format", FORMATS).pipe(
    Options.withDescription("How to print the result: text for people; json, junit, sarif or codeclimate print one document on stdout (junit and sarif for check and validate, codeclimate for check)."),
    Options.withDefault("text" as Format)
  ),
  dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Print the requests the command would make (method and path, one a line) and make none; needs no key."))
}

export interface GlobalFlags {
  readonly baseUrl: Option.Option<string>
  readonly apiKey: Option.Option<string>
  readonly format: Format
  readonly dryRun: boolean
}

export interface Settings {
  /** with `/api/v1` */
  readonly baseUrl: string
  readonly apiKey: string | undefined
  readonly format: Format
  readonly dryRun: boolean
  /** colours on stderr/stdout: a terminal, and no NO_COLOR */
  readonly color: boolean
  /** stderr is a terminal: progress is one live line */
  readonly interactive: boolean
}

/** `http://host:3000`, `http://host:3000/`, `http://host:3000/api/v1/` → `http://host:3000/api/v1`. */
export const normalizeBaseUrl = (raw: string) => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw usage(`--base-url ${raw} is not a URL (e.g. ${DEFAULT_BASE_URL}).`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usage(`--base-url must be http or https, not ${url.protocol}`)
  const path = url.pathname.replace(/\/+$/, "")
  return `${url.origin}${path.endsWith("/api/v1") ? path : `${path}/api/v1`}`
}

export const resolveSettings = (flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env): Settings => {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== ""
  const apiKey = Option.getOrUndefined(flags.apiKey) ?? (env.SERVICE_API_KEY || undefined)
  return {
    baseUrl: normalizeBaseUrl(Option.getOrUndefined(flags.baseUrl) ?? (env.SERVICE_BASE_URL || DEFAULT_BASE_URL)),
    apiKey: apiKey?.trim() || undefined,
    format: flags.format,
    dryRun: flags.dryRun,
    color: !noColor && process.stdout.isTTY === true,
    interactive: process.stderr.isTTY === true
  }
}

/** The guides' base for help links: the service's own pages. */
export const guidesUrl = (settings: Pick<Settings, "baseUrl">) => `${settings.baseUrl}/guides`
