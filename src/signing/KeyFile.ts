/**
 * Key files on disk: the one named by SERVICE_SIGNING_KEY_FILE, or the generated one,
 * `$SERVICE_DATA_DIR/signing-key.json` (mode 0600), created on first start and kept.
 *
 * Two processes starting at once agree on one key: each writes a complete candidate to its own temp
 * file and `link`s it to the final name, which fails if the name exists; the loser reads the winner's
 * file. Rotation (`npm run signing-key -- rotate`) renames the generated key into
 * `$SERVICE_DATA_DIR/signing-keys-retired/<kid>.json` (kept, never deleted) and creates a new one; the
 * old public key stays in the `signing_keys` table, so the JWKS keeps serving it.
 */
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"
import * as Path from "node:path"
import { fromPrivateJwk, generatePrivateJwk, SigningKeyError, type SigningKey } from "./Keys.js"

export const generatedKeyPath = (dataDir: string) => Path.join(dataDir, "signing-key.json")
export const retiredKeysDir = (dataDir: string) => Path.join(dataDir, "signing-keys-retired")

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Reads and checks a private JWK file. SigningKeyError names the path and the problem. */
export const readKeyFile = async (path: string): Promise<SigningKey> => {
  let text: string
  try {
    text = await Fs.readFile(path, "utf8")
  } catch (error) {
    throw new SigningKeyError({
      message: errorCode(error) === "ENOENT" ? `${path}: no such file` : `${path}: cannot be read (${describe(error)})`
    })
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new SigningKeyError({ message: `${path}: not JSON (expected a private JWK)` })
  }
  try {
    return await fromPrivateJwk(parsed)
  } catch (error) {
    throw new SigningKeyError({ message: `${path}: ${describe(error)}` })
  }
}

const writeExclusive = async (path: string, content: string) => {
  const temp = `${path}.${process.pid}.${Crypto.randomUUID()}.tmp`
  const handle = await Fs.open(temp, "wx", 0o600)
  try {
    await handle.writeFile(content)
    await handle.chmod(0o600)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await Fs.link(temp, path)
    return true
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false
    throw error
  } finally {
    await Fs.unlink(temp).catch(() => undefined)
  }
}

/** The generated key: read it, or create it (once, whoever starts first). */
export const ensureGeneratedKey = async (dataDir: string): Promise<{ key: SigningKey; created: boolean; path: string }> => {
  const path = generatedKeyPath(dataDir)
  let created = false
  try {
    await Fs.access(path)
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw new SigningKeyError({ message: `${path}: cannot be read (${describe(error)})` })
    try {
      await Fs.mkdir(dataDir, { recursive: true })
      const jwk = await generatePrivateJwk("EdDSA")
      created = await writeExclusive(path, `${JSON.stringify(jwk, null, 2)}\n`)
    } catch (error) {
      throw new SigningKeyError({ message: `${path}: cannot be created (${describe(error)})` })
    }
  }
  return { key: await readKeyFile(path), created, path }
}

export interface Rotation {
  /** the key moved aside, when there was one */
  readonly retired: { readonly kid: string; readonly path: string } | null
  readonly active: SigningKey
  readonly path: string
}

/** Moves the generated key aside (kept under signing-keys-retired/) and creates a new one. */
export const rotateGeneratedKey = async (dataDir: string): Promise<Rotation> => {
  const path = generatedKeyPath(dataDir)
  let retired: Rotation["retired"] = null
  let current: SigningKey | null = null
  try {
    current = await readKeyFile(path)
  } catch (error) {
    // no key yet: rotation just creates one; an unreadable or broken file is left for a person to look at
    if (!(error instanceof SigningKeyError && error.message.endsWith("no such file"))) throw error
  }
  if (current !== null) {
    const dir = retiredKeysDir(dataDir)
    await Fs.mkdir(dir, { recursive: true, mode: 0o700 })
    const target = Path.join(dir, `${current.kid}.json`)
    await Fs.rename(path, target)
    retired = { kid: current.kid, path: target }
  }
  const { key } = await ensureGeneratedKey(dataDir)
  return { retired, active: key, path }
}
