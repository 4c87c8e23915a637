/**
 * The fixture of a test file of real service processes (vitest hooks), kept apart from Processes.ts,
 * which the benchmarks import too: a module that imports vitest cannot load outside a vitest run.
 */
import { afterAll, beforeAll } from "vitest"
import { makeIdentity, type ServiceProcess, startTestPostgres, tempDir, type TestPostgres } from "./Processes.js"

/**
 * What a test file of real service processes shares: a PostgreSQL and an identity of its own (started
 * once, before its tests), a new database for each test, and every service it started, killed at its
 * end before the server stops. `name` names the databases and the identity's folder.
 */
export const useServiceFixture = (name: string) => {
  let postgres: TestPostgres | undefined
  let identity: Awaited<ReturnType<typeof makeIdentity>> | undefined
  const started: Array<ServiceProcess> = []
  let databases = 0
  beforeAll(async () => {
    postgres = await startTestPostgres()
    identity = await makeIdentity(tempDir(`rubr-${name}-id-`))
  }, 120_000)
  afterAll(async () => {
    for (const service of started) service.kill("SIGKILL")
    await postgres?.stop()
  })
  return {
    get postgres(): TestPostgres {
      return postgres!
    },
    get identity() {
      return identity!
    },
    newDatabase: () => postgres!.createDatabase(`${name}_${process.pid}_${++databases}`),
    /** kills `svc` when the file ends, whatever its tests left running */
    track: <S extends ServiceProcess>(svc: S): S => {
      started.push(svc)
      return svc
    }
  }
}
