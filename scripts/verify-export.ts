/**
 * npm run -s verify-export -- EXPORT.json [--keys JWKS.json | --base-url http://127.0.0.1:3000/api/v1]
 *
 * Checks a proof report export's signature with the same pure function the service and the CLI use
 * (`verifyExport` in src/signing/Document.ts). The public keys come from a JWKS file, or from the
 * service's public GET /signing-keys (default: http://127.0.0.1:3000/api/v1, or SERVICE_BASE_URL).
 * Prints what it checked; exit 0 when the signature holds, 1 when it does not, 2 on bad usage.
 */
import * as Fs from "node:fs"
import { parseArgs } from "node:util"
import { verifyExport } from "../src/signing/Document.js"

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { keys: { type: "string" }, "base-url": { type: "string" } }
})

const usage = (message: string): never => {
  process.stderr.write(`${message}\nusage: npm run -s verify-export -- EXPORT.json [--keys JWKS.json | --base-url URL]\n`)
  process.exit(2)
}

const main = async () => {
  const file = positionals[0] ?? usage("name the export file to verify")
  let document: unknown
  try {
    document = JSON.parse(Fs.readFileSync(file, "utf8"))
  } catch (error) {
    usage(`${file}: not a readable JSON file (${error instanceof Error ? error.message : String(error)})`)
  }
  let jwks: unknown
  if (values.keys !== undefined) {
    jwks = JSON.parse(Fs.readFileSync(values.keys, "utf8"))
  } else {
    const base = (values["base-url"] ?? process.env.SERVICE_BASE_URL ?? "http://127.0.0.1:3000/api/v1").replace(/\/+$/, "")
    const response = await fetch(`${base}/signing-keys`).catch((error: unknown) =>
      usage(`cannot reach ${base}/signing-keys: ${error instanceof Error ? error.message : String(error)}`)
    )
    if (!response.ok) usage(`${base}/signing-keys answered ${response.status}`)
    jwks = await response.json()
  }
  const result = await verifyExport(document, jwks as { keys: ReadonlyArray<never> })
  const payload = (document as { payload?: Record<string, any> }).payload
  if (payload?.source && payload?.candidate) {
    process.stdout.write(
      `report ${payload.reportId}: ${payload.source.path} v${payload.source.versionNumber} (${payload.source.contentHash}) → ` +
        `${payload.candidate.path} v${payload.candidate.versionNumber} (${payload.candidate.contentHash})\n`
    )
  }
  process.stdout.write(`${result.valid ? "VALID" : "INVALID"}: ${result.reason}\n`)
  process.exit(result.valid ? 0 : 1)
}

main().catch((error) => {
  process.stderr.write(`verify-export: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(2)
})
