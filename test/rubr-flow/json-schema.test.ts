/**
 * The JSON Schema derived from `RubrFlow`: a valid draft 2020-12 schema that accepts what the Effect
 * Schema accepts and rejects unknown keys, with readable titles and descriptions.
 */
import Ajv2020Module from "ajv/dist/2020.js"
import { describe, expect, it } from "vitest"
import { rubrFlowJsonSchema } from "../../src/rubr_flow/Format.js"
import { validateText } from "../../src/rubr_flow/Validator.js"

// ajv is CommonJS: its class is `module.exports` and, the same, its `default`
const Ajv2020 = Ajv2020Module.default

const valid = () => ({
  rubr_flow: "1.0",
  name: "Fix CI",
  description: "Find why CI fails and fix it.",
  when_to_use: "When a pull request's checks fail.",
  sources: [{ path: "SKILL.md", content_hash: `sha256:${"c".repeat(64)}`, lines: 50 }],
  inputs: [{ id: "pr", description: "The pull request.", required: true, from: "SKILL.md:2" }],
  steps: [
    { id: "inspect", title: "Inspect", action: "Run `gh pr checks`.", check: "You know the failing checks.", uses: ["pr"], produces: ["failures"], on_failure: "stuck", from: "SKILL.md:3-9" }
  ],
  outputs: [{ id: "failures", description: "The failing checks." }],
  guardrails: [{ never: "Push to main." }, { id: "small", must: "Keep the fix small.", from: "SKILL.md:40" }],
  failure_handling: [{ id: "stuck", when: "It cannot be fixed.", then: "Report.", resume_at: "inspect" }],
  evals: [{ id: "e", name: "Basic", type: "scenario", input: "CI is red", expected_behavior: "Finds the cause.", pass_criteria: "The cause is named." }]
})

const compile = () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  return ajv.compile(rubrFlowJsonSchema())
}

describe("rubrFlowJsonSchema", () => {
  it("is a valid draft 2020-12 schema (strict mode compiles it)", () => {
    const schema = rubrFlowJsonSchema()
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
    const ajv = new Ajv2020({ strict: true })
    expect(ajv.validateSchema(schema)).toBe(true)
    expect(() => compile()).not.toThrow()
  })

  it("accepts a valid document, also one with only the required fields", () => {
    const validate = compile()
    expect(validate(valid()), JSON.stringify(validate.errors)).toBe(true)
    const minimal = { rubr_flow: "1.0", name: "n", description: "d", when_to_use: "w", steps: [{ id: "a", title: "t", action: "x", check: "y" }] }
    expect(validate(minimal), JSON.stringify(validate.errors)).toBe(true)
    // the validator's shape pass agrees
    expect(validateText(JSON.stringify(valid())).flow).not.toBeNull()
  })

  it("rejects an unknown key, at the top and inside a block", () => {
    const validate = compile()
    expect(validate({ ...valid(), extra: 1 })).toBe(false)
    expect(validate.errors?.some((e: { keyword: string; params: Record<string, unknown> }) => e.keyword === "additionalProperties" && e.params.additionalProperty === "extra")).toBe(true)
    const doc = valid()
    ;(doc.steps[0] as Record<string, unknown>).chek = "x"
    expect(validate(doc)).toBe(false)
  })

  it("rejects what the Effect Schema rejects: version, ids, refs, guardrails with both kinds, eval types", () => {
    const validate = compile()
    const cases: Array<(d: ReturnType<typeof valid>) => unknown> = [
      (d) => ({ ...d, rubr_flow: 1 }),
      (d) => ({ ...d, rubr_flow: "2.0" }),
      (d) => ({ ...d, name: "" }),
      (d) => ({ ...d, name: "x".repeat(101) }),
      (d) => ({ ...d, steps: [{ ...d.steps[0], id: "Not An Id" }] }),
      (d) => ({ ...d, steps: [{ ...d.steps[0], from: "SKILL.md" }] }),
      (d) => ({ ...d, guardrails: [{ must: "a", never: "b" }] }),
      (d) => ({ ...d, guardrails: [{}] }),
      (d) => ({ ...d, evals: [{ ...d.evals[0], type: "other" }] }),
      (d) => ({ ...d, sources: [{ path: "SKILL.md", lines: 1.5 }] }),
      (d) => ({ ...d, sources: [{ path: "SKILL.md", lines: -1 }] }),
      (d) => ({ ...d, sources: [{ path: "SKILL.md", lines: 3, content_hash: "md5:x" }] }),
      (d) => {
        const { steps: _, ...rest } = d
        return rest
      }
    ]
    for (const change of cases) {
      const doc = change(valid())
      expect(validate(doc), JSON.stringify(doc)).toBe(false)
      expect(validateText(JSON.stringify(doc)).flow, JSON.stringify(doc)).toBeNull()
    }
  })

  it("carries people's titles and descriptions, not refinement names", () => {
    const text = JSON.stringify(rubrFlowJsonSchema())
    expect(text).not.toMatch(/"title":"(maxLength|minLength|greaterThanOrEqualTo|int|nonNegative)\(?/)
    const defs = rubrFlowJsonSchema().$defs as Record<string, { properties?: Record<string, { description?: string; $ref?: string }> }>
    for (const [name, def] of Object.entries(defs)) {
      for (const [key, prop] of Object.entries(def.properties ?? {})) {
        expect(prop.description !== undefined || prop.$ref !== undefined, `${name}.${key}`).toBe(true)
      }
    }
  })
})
