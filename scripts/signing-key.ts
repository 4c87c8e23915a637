/**
 * npm run signing-key -- show | rotate
 *
 * The key that signs exports (proof reports), read from the same environment as the service:
 *
 *   show    prints the active key id (RFC 7638 thumbprint) and its public JWK, as JSON on stdout:
 *           SERVICE_SIGNING_KEY_FILE's key when set, else the generated $SERVICE_DATA_DIR/signing-key.json
 *           (exit 1 when none was generated yet: the service creates it on first start).
 *
 *   rotate  moves the generated key aside, to $SERVICE_DATA_DIR/signing-keys-retired/<kid>.json (kept,
 *           never deleted), and creates a new one. A running service keeps signing with the old key;
 *           the next start signs with the new one and registers it, while the old public key stays in
 *           the JWKS (GET /api/v1/signing-keys, the append-only signing_keys table), so exports signed
 *           before the rotation still verify. With SERVICE_SIGNING_KEY_FILE set there is nothing to
 *           rotate here: point the variable at a new private JWK and restart (the old key stays listed).
 */
import { Effect, Option } from "effect"
import { appConfig } from "../src/config/AppConfig.js"
import { generatedKeyPath, readKeyFile, rotateGeneratedKey } from "../src/signing/KeyFile.js"
import { SigningKeyError } from "../src/signing/Keys.js"

const usage = "usage: npm run signing-key -- show | rotate\n"
const command = process.argv[2]
if (command !== "show" && command !== "rotate") {
  process.stderr.write(usage)
  process.exit(2)
}

const config = await Effect.runPromise(appConfig).catch((error) => {
  process.stderr.write(`signing-key: invalid configuration: ${String(error).replace(/\s+/g, " ")}\n`)
  process.exit(2)
})
const keyFile = Option.getOrUndefined(config.signing.keyFile)
const dataDir = config.database.dataDir

try {
  if (command === "show") {
    const path = keyFile ?? generatedKeyPath(dataDir)
    const key = await readKeyFile(path).catch((error) => {
      if (keyFile === undefined && error instanceof SigningKeyError && error.message.endsWith("no such file")) {
        process.stderr.write(`signing-key: no signing key yet at ${path}: the service generates one on first start\n`)
        process.exit(1)
      }
      throw error
    })
    process.stderr.write(`# active signing key: ${keyFile ? "SERVICE_SIGNING_KEY_FILE" : "generated"} (${path})\n`)
    process.stdout.write(`${JSON.stringify({ kid: key.kid, alg: key.alg, publicJwk: key.publicJwk }, null, 2)}\n`)
  } else {
    if (keyFile !== undefined) {
      process.stderr.write(
        "signing-key: SERVICE_SIGNING_KEY_FILE is set, so the service does not use a generated key: to rotate, " +
          "point SERVICE_SIGNING_KEY_FILE at a new private JWK and restart (the old public key stays in the JWKS)\n"
      )
      process.exit(2)
    }
    const rotation = await rotateGeneratedKey(dataDir)
    if (rotation.retired) process.stderr.write(`# retired ${rotation.retired.kid} (kept at ${rotation.retired.path})\n`)
    process.stderr.write(`# new signing key ${rotation.active.kid} at ${rotation.path}: restart the service to sign with it\n`)
    process.stdout.write(
      `${JSON.stringify({ kid: rotation.active.kid, alg: rotation.active.alg, retiredKid: rotation.retired?.kid ?? null, publicJwk: rotation.active.publicJwk }, null, 2)}\n`
    )
  }
} catch (error) {
  process.stderr.write(`signing-key: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
