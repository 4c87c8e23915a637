/** The OASIS SARIF 2.1.0 JSON Schema (draft-04) compiled once with ajv, for every test that checks SARIF. */
import AjvModule from "ajv-draft-04"
import * as Fs from "node:fs"

const schema = JSON.parse(Fs.readFileSync(new URL("../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8"))
// the schema's language pattern is not valid as a unicode regexp; formats are ours, without ajv-formats
// ajv-draft-04 is CommonJS: its class is `module.exports` and, the same, its `default`
const Ajv = AjvModule.default
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false })
ajv.addFormat("uri", (s: string) => URL.canParse(s))
ajv.addFormat("uri-reference", /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/)
ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)))

/** The schema's verdict on a SARIF log (as JSON): its errors, none when valid. */
export const sarifSchemaErrors = (log: unknown): ReadonlyArray<unknown> => {
  const validate = compiled()
  return validate(log) ? [] : (validate.errors ?? [{ message: "invalid" }])
}

let cache: ReturnType<typeof ajv.compile> | undefined
const compiled = () => (cache ??= ajv.compile(schema))
