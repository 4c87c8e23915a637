/** Signed export documents: canonical JSON (RFC 8785), signing, offline verification. Pure: no database. */
import * as jose from "jose"
import { describe, expect, it } from "vitest"
import {
  CANONICALIZATION,
  canonicalJson,
  type ExportDocument,
  EXPORT_FORMAT,
  JWS_TYPE,
  signPayload,
  verifyExport
} from "../src/signing/Document.js"
import { deterministicPrivateJwk, fromPrivateJwk, generatePrivateJwk, type SigningKey } from "../src/signing/Keys.js"

const edKey = () => fromPrivateJwk(deterministicPrivateJwk("signing.test ed"))
const otherEdKey = () => fromPrivateJwk(deterministicPrivateJwk("signing.test other"))
const p256Key = async () => fromPrivateJwk(await generatePrivateJwk("ES256"))

/** What a proof report looks like: nested objects and arrays, every kind of JSON leaf. */
const realisticPayload = () => ({
  proofReport: {
    id: "5d0b0a8e-3b7e-4e5b-9a43-51d6f2c0e7aa",
    artifactBundleId: "0b8f4c57-6f3c-4a55-8b7e-5e6a2f1c9d01",
    createdAt: "2025-01-02T03:04:05.678Z",
    status: "completed"
  },
  eval: {
    id: "c3f0d7a1-1111-4222-8333-944455556666",
    caseCount: 3,
    passed: true,
    scoreDelta: 12.5,
    candidate: { fileVersionId: "aa", sha256: "sha256:00ff", lines: 120 },
    cases: [
      { name: "asks before deleting", source: { pass: false, score: 40 }, candidate: { pass: true, score: 88.25 }, evidence: ["line 12: \"never\"", "ok"] },
      { name: "unicode ✓ é 😀", source: { pass: true, score: 0 }, candidate: { pass: true, score: -0.001 }, evidence: [] },
      { name: "nulls", source: null, candidate: { pass: false, score: 1e-7 }, evidence: [null, true, 0] }
    ]
  },
  audit: null,
  notes: ["tab\there", "new\nline", "quote \" and backslash \\"],
  totals: { credits: 0, huge: 123456789012, ratio: 0.30000000000000004 }
})

const jwksOf = (...keys: Array<SigningKey>) => ({ keys: keys.map((k) => k.publicJwk) })

/** every path to a leaf (string, number, boolean, null) of a JSON value */
const leaves = (value: unknown, path: Array<string | number> = []): Array<Array<string | number>> => {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)
    return entries.flatMap(([k, v]) => leaves(v, [...path, k]))
  }
  return [path]
}

const mutateAt = (root: any, path: Array<string | number>, f: (leaf: unknown) => unknown) => {
  const copy = structuredClone(root)
  let node = copy
  for (const step of path.slice(0, -1)) node = node[step]
  const last = path[path.length - 1]
  node[last] = f(node[last])
  return copy
}

const changed = (leaf: unknown): unknown => {
  if (typeof leaf === "string") return leaf.length > 0 ? leaf.slice(0, -1) + String.fromCharCode(leaf.charCodeAt(leaf.length - 1) ^ 1) : "x"
  if (typeof leaf === "number") return leaf + 1
  if (typeof leaf === "boolean") return !leaf
  return 0 // null
}

/** the same JSON with keys in reverse order at every depth */
const reversedKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reversedKeys)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]))
  }
  return value
}

describe("canonical JSON (RFC 8785)", () => {
  it("matches the RFC's example (numbers, escapes, literals)", () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}'
    )
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
  })

  it("sorts members by UTF-16 code units (the RFC's sorting example)", () => {
    const input = { "\u20ac": 1, "\r": 2, "\ufb33": 3, "1": 4, "\ud83d\ude00": 5, "\u0080": 6, "\u00f6": 7 }
    // (read from the text: Object.keys would put the integer-like "1" first)
    const keys = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`))
    expect(keys).toEqual(["\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"])
    expect(canonicalJson(input).startsWith('{"\\r":2,"1":4,')).toBe(true)
  })

  it("no whitespace, -0 as 0, large and tiny numbers as ECMAScript prints them", () => {
    expect(canonicalJson({ b: [1, 2], a: { c: -0, d: 1e21, e: 1e-7, f: 100 } })).toBe('{"a":{"c":0,"d":1e+21,"e":1e-7,"f":100},"b":[1,2]}')
    expect(canonicalJson("\u2028/\u007f")).toBe('"\u2028/\u007f"')
  })

  it("leaves out undefined members, uses toJSON (dates), allows shared (not cyclic) references", () => {
    const shared = { x: 1 }
    expect(canonicalJson({ a: undefined, b: new Date(0), c: [shared, shared] })).toBe(
      '{"b":"1970-01-01T00:00:00.000Z","c":[{"x":1},{"x":1}]}'
    )
  })

  it("refuses what JSON cannot carry, naming where", () => {
    const cyclic: any = { a: [1] }
    cyclic.a.push(cyclic)
    const cases: Array<[unknown, RegExp]> = [
      [[1, undefined], /\$\[1\]: undefined/],
      [{ a: NaN }, /\$\.a: NaN/],
      [{ a: [Infinity] }, /\$\.a\[0\]: Infinity/],
      [{ a: -Infinity }, /-Infinity/],
      [{ f: () => 1 }, /\$\.f: a function/],
      [[() => 1], /\$\[0\]: a function/],
      [{ s: Symbol("s") }, /symbol/],
      [{ n: 10n }, /bigint/],
      [cyclic, /\$\.a\[1\]: cycle/],
      [{ m: new Map() }, /Map object/],
      [{ s: "\ud800x" }, /lone UTF-16 surrogate/],
      [undefined, /undefined/]
    ]
    for (const [value, message] of cases) {
      let error: any
      try {
        canonicalJson(value)
      } catch (e) {
        error = e
      }
      expect(error?._tag, String(message)).toBe("CanonicalJsonError")
      expect(error.message).toMatch(message)
    }
  })
})

describe("signed export documents", () => {
  it("have the documented shape, and the JWS is a standard detached compact JWS over the canonical bytes", async () => {
    const key = await edKey()
    const payload = realisticPayload()
    const doc = await signPayload(payload, key)
    expect(Object.keys(doc)).toEqual(["format", "payload", "signature"])
    expect(doc.format).toBe(EXPORT_FORMAT)
    expect(doc.payload).toEqual(JSON.parse(JSON.stringify(payload)))
    expect(Object.keys(doc.signature)).toEqual(["alg", "kid", "canonicalization", "payloadSha256", "jws"])
    expect(doc.signature).toMatchObject({ alg: "EdDSA", kid: key.kid, canonicalization: CANONICALIZATION })
    expect(doc.signature.payloadSha256).toMatch(/^sha256:[0-9a-f]{64}$/)
    const [header, empty, signature] = doc.signature.jws.split(".")
    expect(empty).toBe("")
    expect(jose.decodeProtectedHeader(doc.signature.jws)).toEqual({ alg: "EdDSA", kid: key.kid, typ: JWS_TYPE })
    // any JWS library verifies it once the canonical payload is put back
    const attached = `${header}.${jose.base64url.encode(canonicalJson(doc.payload))}.${signature}`
    const verified = await jose.compactVerify(attached, await jose.importJWK(key.publicJwk, "EdDSA"))
    expect(new TextDecoder().decode(verified.payload)).toBe(canonicalJson(payload))
    // the kid is the RFC 7638 thumbprint
    expect(key.kid).toBe(await jose.calculateJwkThumbprint(key.publicJwk, "sha256"))
  })

  it("an untouched document verifies, also re-serialized with other whitespace and key order", async () => {
    const key = await edKey()
    const doc = await signPayload(realisticPayload(), key)
    const jwks = jwksOf(await otherEdKey(), key)
    expect(await verifyExport(doc, jwks)).toEqual({ valid: true, kid: key.kid, reason: expect.stringContaining("signature valid") })
    for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2), JSON.stringify(reversedKeys(doc), null, "\t"), `\n ${JSON.stringify(reversedKeys(doc))} \r\n`]) {
      const result = await verifyExport(JSON.parse(text), jwks)
      expect(result.valid, result.reason).toBe(true)
    }
  })

  it("changing any leaf of the payload, at any depth, makes it invalid", async () => {
    const key = await edKey()
    const doc = JSON.parse(JSON.stringify(await signPayload(realisticPayload(), key)))
    const paths = leaves(doc.payload)
    expect(paths.length).toBeGreaterThan(30)
    for (const path of paths) {
      const tampered = mutateAt(doc, ["payload", ...path], changed)
      const result = await verifyExport(tampered, jwksOf(key))
      expect(result.valid, `payload.${path.join(".")}`).toBe(false)
      expect(result.reason).toMatch(/payload hash mismatch/)
    }
  })

  it("changing, adding or removing members and array items of the payload makes it invalid", async () => {
    const key = await edKey()
    const doc = JSON.parse(JSON.stringify(await signPayload(realisticPayload(), key)))
    const tamperings: Array<(d: any) => void> = [
      (d) => { d.payload.extra = 1 },
      (d) => { d.payload.eval.cases[0].extra = null },
      (d) => { delete d.payload.audit },
      (d) => { d.payload.eval.cases.pop() },
      (d) => { d.payload.eval.cases.reverse() },
      (d) => { d.payload.eval.cases[2].evidence.push(null) },
      (d) => { d.payload.eval.scoreDelta = "12.5" },
      (d) => { d.payload.eval.passed = 1 },
      (d) => { d.payload.totals = {} }
    ]
    for (const [i, tamper] of tamperings.entries()) {
      const copy = structuredClone(doc)
      tamper(copy)
      expect((await verifyExport(copy, jwksOf(key))).valid, `tampering ${i}`).toBe(false)
    }
  })

  it("changing any signature field, or adding an unsigned member, makes it invalid", async () => {
    const key = await edKey()
    const doc = JSON.parse(JSON.stringify(await signPayload(realisticPayload(), key)))
    for (const field of ["alg", "kid", "canonicalization", "payloadSha256", "jws"]) {
      const value: string = doc.signature[field]
      // every position of each field: one character changed
      for (let i = 0; i < value.length; i++) {
        const replacement = value[i] === "a" ? "b" : "a"
        const tampered = mutateAt(doc, ["signature", field], (v: any) => v.slice(0, i) + replacement + v.slice(i + 1))
        const result = await verifyExport(tampered, jwksOf(key))
        expect(result.valid, `signature.${field}[${i}]`).toBe(false)
      }
    }
    expect((await verifyExport({ ...doc, format: "rubr.proof_report.v2" }, jwksOf(key))).reason).toMatch(/unsupported format/)
    expect((await verifyExport({ ...doc, trusted: true }, jwksOf(key))).reason).toMatch(/unexpected member "trusted"/)
    expect((await verifyExport({ ...doc, signature: { ...doc.signature, note: "x" } }, jwksOf(key))).reason).toMatch(/unexpected member "note"/)
    const { payloadSha256: _, ...withoutHash } = doc.signature
    expect((await verifyExport({ ...doc, signature: withoutHash }, jwksOf(key))).reason).toMatch(/missing member "payloadSha256"/)
  })

  it("changing any single byte of the serialized document changes its content or its validity, never both silently", async () => {
    const key = await edKey()
    const doc = await signPayload(realisticPayload(), key)
    const text = JSON.stringify(doc)
    const original = JSON.parse(text)
    let contentChanges = 0
    for (let i = 0; i < text.length; i++) {
      for (const replacement of ["0", "a", "Z"]) {
        if (text[i] === replacement) continue
        const mutated = text.slice(0, i) + replacement + text.slice(i + 1)
        let parsed: unknown
        try {
          parsed = JSON.parse(mutated)
        } catch {
          continue // not JSON any more: nothing to verify
        }
        if (JSON.stringify(parsed) === JSON.stringify(original)) continue
        contentChanges++
        const result = await verifyExport(parsed, jwksOf(key))
        expect(result.valid, `byte ${i} → ${replacement}: ${mutated.slice(Math.max(0, i - 20), i + 20)}`).toBe(false)
      }
    }
    expect(contentChanges).toBeGreaterThan(text.length)
  })

  it("one signature text per document: no base64url slack, no malleated ES256 twin", async () => {
    const ed = await edKey()
    const doc = await signPayload(realisticPayload(), ed)
    const [header, , signature] = doc.signature.jws.split(".")
    // 64 bytes in 86 characters: the last one carries 4 unused bits; setting one decodes to the same bytes
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const last = alphabet.indexOf(signature[signature.length - 1])
    const slack = signature.slice(0, -1) + alphabet[last ^ 1]
    expect(jose.base64url.decode(slack)).toEqual(jose.base64url.decode(signature))
    expect(await verifyExport({ ...doc, signature: { ...doc.signature, jws: `${header}..${slack}` } }, jwksOf(ed))).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/canonical base64url/)
    })

    const ec = await p256Key()
    const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n
    for (let i = 0; i < 8; i++) {
      const ecDoc = await signPayload({ i }, ec)
      const [h, , sig] = ecDoc.signature.jws.split(".")
      const bytes = jose.base64url.decode(sig)
      const s = BigInt(`0x${Buffer.from(bytes.subarray(32)).toString("hex")}`)
      expect(s <= n / 2n).toBe(true)
      const twin = new Uint8Array(64)
      twin.set(bytes.subarray(0, 32))
      twin.set(Buffer.from((n - s).toString(16).padStart(64, "0"), "hex"), 32)
      // the twin is a valid ECDSA signature for a lenient verifier...
      const attached = `${h}.${jose.base64url.encode(canonicalJson(ecDoc.payload))}.${jose.base64url.encode(twin)}`
      await jose.compactVerify(attached, await jose.importJWK(ec.publicJwk, "ES256"))
      // ...but not a valid export
      const malleated = { ...ecDoc, signature: { ...ecDoc.signature, jws: `${h}..${jose.base64url.encode(twin)}` } }
      expect((await verifyExport(malleated, jwksOf(ec))).valid).toBe(false)
      expect((await verifyExport(ecDoc, jwksOf(ec))).valid).toBe(true)
    }
  })

  it("a payload and hash from another document do not verify with this signature", async () => {
    const key = await edKey()
    const a = await signPayload({ verdict: "pass" }, key)
    const b = await signPayload({ verdict: "fail" }, key)
    const spliced = { ...b, signature: { ...b.signature, jws: a.signature.jws } }
    expect(await verifyExport(spliced, jwksOf(key))).toMatchObject({ valid: false, reason: expect.stringMatching(/does not verify/) })
  })

  it("an unknown kid is invalid with a clear reason", async () => {
    const key = await edKey()
    const doc = await signPayload(realisticPayload(), key)
    const result = await verifyExport(doc, jwksOf(await otherEdKey()))
    expect(result).toEqual({ valid: false, kid: key.kid, reason: `unknown key id ${key.kid}: it is not in the JWKS` })
    expect((await verifyExport(doc, { keys: [] })).valid).toBe(false)
    expect((await verifyExport(doc, {} as any)).reason).toMatch(/no "keys" array/)
    expect((await verifyExport(doc, { keys: [null, key.publicJwk] } as any)).valid).toBe(true)
  })

  it("a wrong algorithm is invalid", async () => {
    const ed = await edKey()
    const ec = await p256Key()
    // ES256 documents verify with a P-256 key
    const ecDoc = await signPayload(realisticPayload(), ec)
    expect(ecDoc.signature.alg).toBe("ES256")
    expect((await verifyExport(ecDoc, jwksOf(ed, ec))).valid).toBe(true)

    // a forger signs with a P-256 key under the Ed25519 key's kid
    const forged = await signPayload(realisticPayload(), { ...ec, kid: ed.kid })
    expect(await verifyExport(forged, jwksOf(ed, ec))).toMatchObject({
      valid: false,
      reason: `algorithm ES256 is not the algorithm of key ${ed.kid} (OKP Ed25519)`
    })
    // the JWKS entry says another alg for the same key material
    const relabelled = { keys: [{ ...ed.publicJwk, alg: "ES256" }] }
    expect((await verifyExport(await signPayload({ a: 1 }, ed), relabelled)).valid).toBe(false)
    // a claimed alg that is not the signed header's, or not supported
    const doc = JSON.parse(JSON.stringify(await signPayload({ a: 1 }, ed)))
    expect((await verifyExport({ ...doc, signature: { ...doc.signature, alg: "ES256" } }, jwksOf(ed))).reason).toMatch(
      /does not match the algorithm in the signed header/
    )
    for (const alg of ["none", "HS256", "RS256"]) {
      expect((await verifyExport({ ...doc, signature: { ...doc.signature, alg } }, jwksOf(ed))).reason).toMatch(/unsupported algorithm/)
    }
    // an HMAC "signature" keyed with the public key bytes is refused too
    const header = jose.base64url.encode(JSON.stringify({ alg: "HS256", kid: ed.kid, typ: JWS_TYPE }))
    const hs = await new jose.CompactSign(new TextEncoder().encode(canonicalJson(doc.payload)))
      .setProtectedHeader({ alg: "HS256", kid: ed.kid, typ: JWS_TYPE })
      .sign(jose.base64url.decode(ed.publicJwk.x!))
    const hsDoc = { ...doc, signature: { ...doc.signature, alg: "HS256", jws: `${header}..${hs.split(".")[2]}` } }
    expect((await verifyExport(hsDoc, jwksOf(ed))).valid).toBe(false)
  })

  it("only JSON objects are payloads; anything else is not a document", async () => {
    const key = await edKey()
    await expect(signPayload([1, 2] as any, key)).rejects.toMatchObject({ _tag: "CanonicalJsonError" })
    await expect(signPayload({ bad: NaN }, key)).rejects.toMatchObject({ _tag: "CanonicalJsonError", path: "$.bad" })
    for (const value of [null, 1, "x", [], {}, { format: EXPORT_FORMAT }]) {
      expect((await verifyExport(value, jwksOf(key))).valid).toBe(false)
    }
  })

  it("documents are plain JSON data (dates as strings, undefined members gone)", async () => {
    const key = await edKey()
    const doc: ExportDocument = await signPayload({ at: new Date(0), gone: undefined, n: 1 }, key)
    expect(doc.payload).toEqual({ at: "1970-01-01T00:00:00.000Z", n: 1 })
    expect((await verifyExport(doc, jwksOf(key))).valid).toBe(true)
  })
})
