/** Issue 2: login tokens, users, the signup grant, API keys and their lifecycle. */
import { expect, layer } from "@effect/vitest"
import * as Crypto from "node:crypto"
import { Effect } from "effect"
import { generateDevKey, mintToken } from "../src/auth/DevTokens.js"
import { AUDIENCE, ISSUER, makeTestApp, TestApp } from "./support/TestApp.js"
import { call, expectError } from "./support/fixtures.js"

layer(makeTestApp())("login tokens", (it) => {
  it.effect("a valid token creates the user and identity on first use", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("alice", { email: "Alice@Example.com", name: "Alice" }))
      const reply = yield* call((app) => app.request("GET", "/me", { token }))
      expect(reply.status).toBe(200)
      const { user, identities, apiKey } = reply.body.data
      expect(user.email).toBe("alice@example.com")
      expect(user.displayName).toBe("Alice")
      expect(user.status).toBe("active")
      expect(user.planKey).toBe("free")
      expect(apiKey).toBeUndefined()
      expect(identities).toHaveLength(1)
      expect(identities![0]).toMatchObject({
        provider: "firebase",
        providerUserId: "alice",
        signInProvider: "google.com",
        signInProviderLabel: "Google",
        emailVerified: true
      })
      expect(reply.body.requestId).toBe(reply.headers.get("x-request-id"))
    }))

  it.effect("the same sub is the same user on every request", () =>
    Effect.gen(function*() {
      const a = yield* call(async (app) => app.request("GET", "/me", { token: await app.token("bob") }))
      const b = yield* call(async (app) => app.request("GET", "/me", { token: await app.token("bob") }))
      expect(a.body.data.user.id).toBe(b.body.data.user.id)
    }))

  it.effect("missing, malformed and garbage credentials are 401", () =>
    Effect.gen(function*() {
      expectError(yield* call((app) => app.request("GET", "/me")), 401, "unauthorized")
      expectError(yield* call((app) => app.request("GET", "/me", { headers: { authorization: "Basic abc" } })), 401, "unauthorized")
      expectError(yield* call((app) => app.request("GET", "/me", { token: "not-a-jwt" })), 401, "unauthorized")
      expectError(yield* call((app) => app.request("GET", "/me", { token: "rubr_doesnotexist" })), 401, "unauthorized")
    }))

  it.effect("expired, foreign-signed, wrong-audience, wrong-issuer and future-iat tokens are 401", () =>
    Effect.gen(function*() {
      const now = Math.floor(Date.now() / 1000)
      const expired = yield* call((app) => app.token("carol", { nowSeconds: now - 7200, ttlSeconds: 3600 }))
      expectError(yield* call((app) => app.request("GET", "/me", { token: expired })), 401, "unauthorized")
      const foreign = yield* Effect.promise(async () =>
        mintToken((await generateDevKey()).key, { issuer: ISSUER, audience: AUDIENCE, sub: "carol" })
      )
      expectError(yield* call((app) => app.request("GET", "/me", { token: foreign })), 401, "unauthorized")
      const audience = yield* call((app) => app.token("carol", { audience: "someone-else" }))
      expectError(yield* call((app) => app.request("GET", "/me", { token: audience })), 401, "unauthorized")
      const issuer = yield* call((app) => app.token("carol", { issuer: "https://evil.example" }))
      expectError(yield* call((app) => app.request("GET", "/me", { token: issuer })), 401, "unauthorized")
      const future = yield* call((app) => app.token("carol", { nowSeconds: now + 600 }))
      expectError(yield* call((app) => app.request("GET", "/me", { token: future })), 401, "unauthorized")
      // none of them created a user
      const rows = yield* Effect.flatMap(TestApp, (app) => app.sql`SELECT 1 FROM identities WHERE provider_user_id = 'carol'`)
      expect(rows).toHaveLength(0)
    }))

  it.effect("a token within the 60 s clock tolerance is accepted", () =>
    Effect.gen(function*() {
      const now = Math.floor(Date.now() / 1000)
      const token = yield* call((app) => app.token("tolerant", { nowSeconds: now - 3630, ttlSeconds: 3600 }))
      expect((yield* call((app) => app.request("GET", "/me", { token }))).status).toBe(200)
    }))

  it.effect("disallowed sign-in providers are 403 and create nothing", () =>
    Effect.gen(function*() {
      for (const provider of ["password", "anonymous", "emailLink", "microsoft.com"]) {
        const token = yield* call((app) => app.token(`p-${provider}`, { signInProvider: provider }))
        expectError(yield* call((app) => app.request("GET", "/me", { token })), 403, "forbidden")
      }
      const github = yield* call((app) => app.token("gh-user", { signInProvider: "github.com" }))
      const reply = yield* call((app) => app.request("GET", "/me", { token: github }))
      expect(reply.status).toBe(200)
      expect(reply.body.data.identities![0].signInProviderLabel).toBe("GitHub")
      const rows = yield* Effect.flatMap(TestApp, (app) => app.sql`SELECT 1 FROM identities WHERE provider_user_id LIKE 'p-%'`)
      expect(rows).toHaveLength(0)
    }))

  it.effect("the signup grant is written exactly once under 10 concurrent first requests", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("rush"))
      const replies = yield* call((app) => Promise.all(Array.from({ length: 10 }, () => app.request("GET", "/me", { token }))))
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200))
      expect(new Set(replies.map((r) => r.body.data.user.id)).size).toBe(1)
      const userId = replies[0].body.data.user.id
      const sql = (yield* TestApp).sql
      const users = yield* sql`SELECT u.id FROM users u JOIN identities i ON i.user_id = u.id WHERE i.provider_user_id = 'rush'`
      expect(users).toHaveLength(1)
      const grants = yield* sql<{ amount: number; type: string; balanceAfter: number }>`
        SELECT amount, type, balance_after FROM credit_ledger WHERE user_id = ${userId}`
      expect(grants).toEqual([{ amount: 100, type: "grant", balanceAfter: 100 }])
      const [balance] = yield* sql<{ balance: number }>`SELECT balance FROM credit_balances WHERE user_id = ${userId}`
      expect(balance.balance).toBe(100)
    }))

  it.effect("the ledger rejects UPDATE, DELETE and TRUNCATE in the database", () =>
    Effect.gen(function*() {
      yield* call(async (app) => app.request("GET", "/me", { token: await app.token("ledger-owner") }))
      const sql = (yield* TestApp).sql
      const update = yield* Effect.either(sql`UPDATE credit_ledger SET amount = 1000000`)
      const del = yield* Effect.either(sql`DELETE FROM credit_ledger`)
      const truncate = yield* Effect.either(sql`TRUNCATE credit_ledger`)
      expect(update._tag).toBe("Left")
      expect(del._tag).toBe("Left")
      expect(truncate._tag).toBe("Left")
      expect(String((update as any).left.cause)).toContain("append-only")
      const [{ count }] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM credit_ledger`
      expect(count).toBeGreaterThan(0)
    }))
})

layer(makeTestApp())("API keys", (it) => {
  it.effect("create shows the raw key once; list, read and revoke never do", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("keys-owner"))
      const created = yield* call((app) =>
        app.request("POST", "/api-keys", { token, body: { name: "  ci pipeline ", scopes: ["files:read", "jobs:read"] } })
      )
      expect(created.status).toBe(201)
      const raw: string = created.body.data.rawApiKey
      expect(raw).toMatch(/^rubr_[0-9A-Za-z]{40}$/)
      const key = created.body.data.apiKey
      expect(key).toMatchObject({ name: "ci pipeline", prefix: raw.slice(0, 12), status: "active", scopes: ["files:read", "jobs:read"] })
      expect(key.revokedAt).toBeNull()
      expect(Object.keys(key).sort()).toEqual(
        ["createdAt", "expiresAt", "id", "lastUsedAt", "name", "prefix", "revokedAt", "scopes", "status", "updatedAt"]
      )
      const listed = yield* call((app) => app.request("GET", "/api-keys", { token }))
      expect(listed.status).toBe(200)
      expect(listed.body.data.apiKeys.map((k) => k.id)).toContain(key.id)
      expect(listed.text).not.toContain(raw)
      expect(listed.text).not.toContain(raw.slice(12))
      // only the hash is stored
      const [stored] = yield* Effect.flatMap(TestApp, (app) => app.sql<{ keyHash: Buffer }>`SELECT key_hash FROM api_keys WHERE id = ${key.id}`)
      expect(stored.keyHash.toString("hex")).toBe(Crypto.createHash("sha256").update(raw).digest("hex"))
      const me = yield* call((app) => app.request("GET", "/me", { token: raw }))
      expect(me.status).toBe(200)
      expect(me.body.data.apiKey!.id).toBe(key.id)
      expect(me.body.data.identities!).toBeUndefined()
      expect(me.text).not.toContain(raw)
      expect(me.body.data.apiKey!.lastUsedAt).not.toBeNull()
      const revoked = yield* call((app) => app.request("DELETE", `/api-keys/${key.id}`, { token }))
      expect(revoked.status).toBe(200)
      expect(revoked.body.data.apiKey).toMatchObject({ id: key.id, status: "revoked" })
      expect(revoked.body.data.apiKey!.revokedAt).not.toBeNull()
      expect(revoked.text).not.toContain(raw)
      expectError(yield* call((app) => app.request("GET", "/me", { token: raw })), 401, "unauthorized")
      // revoking again is idempotent
      const again = yield* call((app) => app.request("DELETE", `/api-keys/${key.id}`, { token }))
      expect(again.status).toBe(200)
      expect(again.body.data.apiKey!.revokedAt).toBe(revoked.body.data.apiKey!.revokedAt)
    }))

  it.effect("key management accepts login tokens only", () =>
    Effect.gen(function*() {
      const raw = yield* call((app) => app.apiKey("keys-owner-2", ["artifact_bundles:read", "credits:read"]))
      expectError(yield* call((app) => app.request("GET", "/api-keys", { token: raw })), 403, "forbidden")
      expectError(
        yield* call((app) => app.request("POST", "/api-keys", { token: raw, body: { name: "x", scopes: ["files:read"] } })),
        403,
        "forbidden"
      )
    }))

  it.effect("another user's key is 404 and stays active; a malformed id is 400", () =>
    Effect.gen(function*() {
      const owner = yield* call((app) => app.token("owner-a"))
      const created = yield* call((app) => app.request("POST", "/api-keys", { token: owner, body: { name: "a", scopes: ["files:read"] } }))
      const intruder = yield* call((app) => app.token("intruder-b"))
      expectError(yield* call((app) => app.request("DELETE", `/api-keys/${created.body.data.apiKey!.id}`, { token: intruder })), 404, "not_found")
      const listed = yield* call((app) => app.request("GET", "/api-keys", { token: intruder }))
      expect(listed.body.data.apiKeys).toEqual([])
      expect((yield* call((app) => app.request("GET", "/me", { token: created.body.data.rawApiKey }))).status).toBe(200)
      expectError(yield* call((app) => app.request("DELETE", "/api-keys/not-a-uuid", { token: owner })), 400, "validation_failed")
      expectError(
        yield* call((app) => app.request("DELETE", "/api-keys/00000000-0000-4000-8000-000000000000", { token: owner })),
        404,
        "not_found"
      )
    }))

  it.effect("invalid creation bodies are 400 with details naming each field", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("validator"))
      const cases: Array<[unknown, string]> = [
        [{ name: "", scopes: ["files:read"] }, "name"],
        [{ name: "x".repeat(101), scopes: ["files:read"] }, "name"],
        [{ name: "ok", scopes: [] }, "scopes"],
        [{ name: "ok", scopes: ["files:read", "root:all"] }, "scopes.1"],
        [{ name: "ok" }, "scopes"],
        [{ scopes: ["files:read"] }, "name"],
        [{ name: "ok", scopes: ["files:read"], expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt"],
        [{ name: "ok", scopes: ["files:read"], expiresAt: "yesterday" }, "expiresAt"]
      ]
      for (const [body, path] of cases) {
        const reply = yield* call((app) => app.request("POST", "/api-keys", { token, body }))
        expectError(reply, 400, "validation_failed")
        expect(reply.body.error.details.map((d) => d.path)).toContain(path)
      }
      const both = yield* call((app) => app.request("POST", "/api-keys", { token, body: { name: "", scopes: [] } }))
      expect(both.body.error.details.map((d) => d.path).sort()).toEqual(["name", "scopes"])
      const listed = yield* call((app) => app.request("GET", "/api-keys", { token }))
      expect(listed.body.data.apiKeys).toEqual([])
    }))

  it.effect("a key with a future expiry works until it expires, then is 401", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("expiring"))
      const expiresAt = new Date(Date.now() + 3600_000).toISOString()
      const created = yield* call((app) => app.request("POST", "/api-keys", { token, body: { name: "short", scopes: ["files:read"], expiresAt } }))
      expect(created.status).toBe(201)
      expect(created.body.data.apiKey!.expiresAt).toBe(expiresAt)
      const raw = created.body.data.rawApiKey
      expect((yield* call((app) => app.request("GET", "/me", { token: raw }))).status).toBe(200)
      const sql = (yield* TestApp).sql
      yield* sql`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${created.body.data.apiKey!.id}`
      const reply = yield* call((app) => app.request("GET", "/me", { token: raw }))
      expectError(reply, 401, "unauthorized")
      expect(reply.body.error.message).toContain("expired")
    }))

  it.effect("lastUsedAt is written at most once a minute", () =>
    Effect.gen(function*() {
      const raw = yield* call((app) => app.apiKey("busy", ["files:read"]))
      const first = yield* call((app) => app.request("GET", "/me", { token: raw }))
      const second = yield* call((app) => app.request("GET", "/me", { token: raw }))
      expect(first.body.data.apiKey!.lastUsedAt).not.toBeNull()
      expect(second.body.data.apiKey!.lastUsedAt).toBe(first.body.data.apiKey!.lastUsedAt)
    }))
})

