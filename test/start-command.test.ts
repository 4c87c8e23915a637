/**
 * The image runs what `npm start` runs (docs/deploy.md): the same file with the same node flags, which
 * decide the process's memory and its speed under load (docs/decisions.md, "Node flags of `npm start`").
 * A flag changed in one place and not the other would ship an image that behaves unlike every measurement.
 */
import { describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { npmStartCommand } from "../scripts/start-command.js"

const ROOT = Path.resolve(import.meta.dirname, "..")


/** The image's `CMD [...]` (exec form). */
const imageCommand = () => {
  const line = Fs.readFileSync(Path.join(ROOT, "Dockerfile"), "utf8").split("\n").find((l) => l.startsWith("CMD "))
  return JSON.parse(line!.slice("CMD ".length)) as Array<string>
}

describe("the start command", () => {
  it("is the same in the image as in npm start", () => {
    expect(imageCommand()).toEqual(npmStartCommand(ROOT))
  })

  it("runs the bundle on plain node with the memory flags", () => {
    const command = npmStartCommand(ROOT)
    expect(command[0]).toBe("node")
    expect(command.at(-1)).toBe("dist/server/main.js")
    expect(command).toEqual(expect.arrayContaining(["--max-semi-space-size=16", "--max-old-space-size=256", "--heap-growing-percent=100"]))
  })

  it("uses flags the running node accepts", async () => {
    const { execFileSync } = await import("node:child_process")
    const flags = npmStartCommand(ROOT).filter((word) => word.startsWith("--"))
    expect(execFileSync(process.execPath, [...flags, "-e", "process.stdout.write('ok')"], { encoding: "utf8" })).toBe("ok")
  })
})
