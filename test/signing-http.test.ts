/** GET /api/v1/signing-keys: the public JWKS that verifies exports, as a whole app serves it. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { signPayload, verifyExport } from "../src/signing/Document.js"
import { deterministicPrivateJwk, fromPrivateJwk } from "../src/signing/Keys.js"
import { inOneMinuteWindow, makeTestApp, type OpenApiDocument, TestApp } from "./support/TestApp.js"

// the app signs with this key file, so the test holds the private key too
const privateJwk = deterministicPrivateJwk("signing-http.test")
const keyFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-signing-http-")), "key.json")
Fs.writeFileSync(keyFile, JSON.stringify(privateJwk), { mode: 0o600 })

layer(makeTestApp({ role: "api", env: { SERVICE_SIGNING_KEY_FILE: keyFile, SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "4" } }))(
  "the signing keys route",
  (it) => {
    it.effect("is public, answers the JWKS itself, verifies what the service's key signs, and counts against the per-IP limit", () =>
      Effect.gen(function*() {
        yield* inOneMinuteWindow()
        const app = yield* TestApp
        const key = yield* Effect.promise(() => fromPrivateJwk(privateJwk))
        const reply = yield* Effect.promise(() => app.request("GET", "/signing-keys"))
        expect(reply.status).toBe(200)
        expect(reply.headers.get("content-type")).toContain("application/jwk-set+json")
        expect(reply.body).toEqual({ keys: [key.publicJwk] })

        // registered at start: the table holds it too
        const rows = yield* app.sql<{ kid: string }>`SELECT kid FROM signing_keys`
        expect(rows.map((r) => r.kid)).toEqual([key.kid])

        const document = yield* Effect.promise(() => signPayload({ proofReport: { id: "r1" }, score: 91.5 }, key))
        expect(yield* Effect.promise(() => verifyExport(JSON.parse(JSON.stringify(document)), reply.body))).toMatchObject({
          valid: true,
          kid: key.kid
        })

        // the OpenAPI document lists it with its media type
        const openapi = yield* Effect.promise(() => app.requestAs<OpenApiDocument>("GET", "/openapi.json"))
        const operation = openapi.body.paths["/api/v1/signing-keys"].get
        expect(Object.keys(operation.responses["200"].content)).toEqual(["application/jwk-set+json"])

        const statuses: Array<number> = []
        for (let i = 0; i < 4; i++) statuses.push((yield* Effect.promise(() => app.request("GET", "/signing-keys"))).status)
        expect(statuses.at(-1)).toBe(429)
        Fs.rmSync(Path.dirname(keyFile), { recursive: true, force: true })
      }))
  }
)
