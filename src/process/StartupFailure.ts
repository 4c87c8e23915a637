/**
 * Why the service could not start, said in one line a person can act on: the thing that failed and
 * the fix. Start-up code fails with `StartupFailure` where it knows both; `explainStartupFailure`
 * also recognises the failures the platform raises itself (a taken port, a bad setting).
 */
import { Cause, ConfigError, Data, Option } from "effect"
import * as Net from "node:net"

export class StartupFailure extends Data.TaggedError("StartupFailure")<{
  /** what went wrong, naming the thing (a port, a folder, a file, a variable) */
  readonly problem: string
  /** what to do about it */
  readonly fix: string
}> {
  override get message() {
    return `${this.problem}. ${this.fix}`
  }
}

const codeOf = (error: unknown): string | undefined => {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string") return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** The listening error of node's `server.listen` (address and port are on the error). */
const listenFailure = (error: unknown, listen: { readonly host: string; readonly port: number }): StartupFailure | undefined => {
  const code = codeOf(error)
  const where = `${listen.host}:${listen.port}`
  if (code === "EADDRINUSE") {
    return new StartupFailure({
      problem: `cannot listen on ${where}: port ${listen.port} is already in use (another rubr, or another program, listens there)`,
      fix: `Stop that process, or set PORT to a free port.`
    })
  }
  if (code === "EACCES") {
    return new StartupFailure({
      problem: `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`,
      fix: `Set PORT to 1024 or above.`
    })
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return new StartupFailure({
      problem: `cannot listen on ${where}: this machine has no address ${listen.host}`,
      fix: `Set HOST to an address of this machine (127.0.0.1 for this machine only, 0.0.0.0 for every interface).`
    })
  }
  return undefined
}

/**
 * Whether the API's port can be had, asked before anything else starts (the embedded database, the
 * worker): a second `npm start` beside a running one says so at once and touches nothing of the first.
 */
export const checkListenable = (listen: { readonly host: string; readonly port: number }) =>
  new Promise<StartupFailure | undefined>((resolve) => {
    if (listen.port === 0) return resolve(undefined)
    const probe = Net.createServer()
    probe.once("error", (error) => resolve(listenFailure(error, listen) ?? undefined))
    probe.listen({ host: listen.host, port: listen.port, exclusive: true }, () => probe.close(() => resolve(undefined)))
  })

const flatten = (text: string) => text.replace(/\s+/g, " ").trim()

/** One line for a failed start (without the `rubr: ` prefix). */
export const explainStartupFailure = (
  cause: Cause.Cause<unknown>,
  listen: { readonly host: string; readonly port: number }
): string => {
  const failure = Option.getOrElse(Cause.failureOption(cause), () => Cause.squash(cause))
  if (failure instanceof StartupFailure) return failure.message
  if (ConfigError.isConfigError(failure)) {
    return `invalid configuration: ${flatten(String(failure))}. Correct the variable (the README's configuration table lists each one).`
  }
  // the platform's ServeError keeps node's listen error as its cause
  const listening = listenFailure(failure, listen)
  if (listening) return listening.message
  const message = failure instanceof Error ? failure.message : String(failure)
  return `could not start: ${flatten(message)}. The log lines above say more; quote them when reporting it.`
}
