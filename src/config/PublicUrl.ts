/**
 * Where people reach the service: the base of every link a person is shown (unsubscribe links in
 * emails and in `npm run outbox`). `SERVICE_PUBLIC_BASE_URL` when it is set; otherwise the address the
 * running API process actually listens on, which it records in the data directory when it starts
 * (`service.json`), so a worker, a second process or a script started without the same `PORT` still
 * links to it; otherwise HOST:PORT from the configuration.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

export interface ListeningRecord {
  readonly baseUrl: string
  readonly pid: number
  readonly startedAt: string
}

export const listeningRecordPath = (dataDir: string) => Path.join(dataDir, "service.json")

/** An address people can open: a wildcard bind (0.0.0.0, ::) is reached on the loopback address. */
export const originOf = (host: string, port: number) => {
  const reachable = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** The running API process's record, when there is one and its process is alive. */
export const readListeningRecord = (dataDir: string): ListeningRecord | undefined => {
  try {
    const record = JSON.parse(Fs.readFileSync(listeningRecordPath(dataDir), "utf8")) as ListeningRecord
    return typeof record.baseUrl === "string" && Number.isInteger(record.pid) && alive(record.pid) ? record : undefined
  } catch {
    return undefined
  }
}

export const writeListeningRecord = (dataDir: string, origin: string) => {
  Fs.mkdirSync(dataDir, { recursive: true })
  const record: ListeningRecord = { baseUrl: origin, pid: process.pid, startedAt: new Date().toISOString() }
  Fs.writeFileSync(listeningRecordPath(dataDir), JSON.stringify(record, null, 2) + "\n")
}

/** Removes the record if it is still this process's (another API process may have written its own). */
export const removeListeningRecord = (dataDir: string) => {
  try {
    const record = JSON.parse(Fs.readFileSync(listeningRecordPath(dataDir), "utf8")) as ListeningRecord
    if (record.pid === process.pid) Fs.rmSync(listeningRecordPath(dataDir), { force: true })
  } catch {
    // nothing recorded
  }
}

export const resolvePublicBaseUrl = (config: {
  readonly publicBaseUrl: string | undefined
  readonly host: string
  readonly port: number
  readonly database: { readonly dataDir: string }
}): string =>
  (config.publicBaseUrl ?? readListeningRecord(config.database.dataDir)?.baseUrl ?? originOf(config.host, config.port)).replace(/\/+$/, "")
