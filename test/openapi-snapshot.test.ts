/**
 * The OpenAPI document is the product's contract: a change inside the code (a move, a split, a new
 * helper for routes) must not change one byte of it. `test/snapshots/openapi.json` is the document as
 * served; when the contract is meant to change, regenerate it with
 * `RUBR_UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run test/openapi-snapshot.test.ts` and review the diff.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { openApiDocument } from "../src/system/Http.js"

const snapshotPath = Path.join(import.meta.dirname, "snapshots", "openapi.json")

describe("the OpenAPI document", () => {
  it("is byte-identical to the reviewed snapshot", () => {
    const served = `${JSON.stringify(openApiDocument(), null, 2)}\n`
    if (process.env.RUBR_UPDATE_OPENAPI_SNAPSHOT === "1") Fs.writeFileSync(snapshotPath, served)
    const expected = Fs.readFileSync(snapshotPath, "utf8")
    // compared as text (not deep-equal): key order and every string are part of what clients read
    expect(served === expected, "the OpenAPI document changed; see this file's header").toBe(true)
  })
})
