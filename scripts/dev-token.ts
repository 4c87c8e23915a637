/**
 * npm run dev:token [-- --sub alice --email alice@example.com --provider github.com --ttl 3600]
 * Creates the local development JWKS (once) where the service reads it, and prints a login token.
 */
import * as Path from "node:path"
import { parseArgs } from "node:util"
import { ensureDevKey, mintToken } from "../src/auth/DevTokens.js"

const { values } = parseArgs({
  options: {
    sub: { type: "string", default: "dev-user" },
    email: { type: "string" },
    name: { type: "string" },
    provider: { type: "string", default: "google.com" },
    ttl: { type: "string", default: "3600" }
  }
})

if (process.env.SERVICE_AUTH_JWKS_URL) {
  process.stderr.write("SERVICE_AUTH_JWKS_URL is set: the service trusts a remote JWKS, so a local dev token would be rejected.\n")
  process.exit(2)
}
const dataDir = Path.resolve(process.env.SERVICE_DATA_DIR ?? "./.data")
const jwksFile = Path.resolve(process.env.SERVICE_AUTH_JWKS_FILE ?? Path.join(dataDir, "dev-jwks.json"))
const key = await ensureDevKey(jwksFile)
const token = await mintToken(key, {
  issuer: process.env.SERVICE_AUTH_ISSUER ?? "rubr-dev",
  audience: process.env.SERVICE_AUTH_AUDIENCE ?? "rubr",
  sub: values.sub!,
  ...(values.email ? { email: values.email } : {}),
  ...(values.name ? { name: values.name } : {}),
  signInProvider: values.provider!,
  ttlSeconds: Number(values.ttl)
})
process.stderr.write(`# login token for sub=${values.sub} (${values.provider}), valid ${values.ttl} s; JWKS: ${jwksFile}\n`)
process.stdout.write(token + "\n")
