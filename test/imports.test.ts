/**
 * What a process loads at startup is memory it keeps (docs/performance.md, "Memory"): a package's
 * index module loads every module of the package (for @effect/platform, two API-reference bundles of
 * several MB each; for @effect/ai-openai, a tokenizer's tables), and the OpenAI-compatible providers
 * bring the OpenAI API's generated schemas. These checks keep both out of the startup graph.
 */
import { describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"

const SRC = Path.resolve(import.meta.dirname, "../src")

const sourceFiles = (dir: string): Array<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = Path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : []
  })

/** Every static `import … from "x"` and `export … from "x"` of a file (dynamic `import("x")` excluded). */
const staticSpecifiers = (text: string) =>
  [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm)].map((m) => m[1]!)

const files = sourceFiles(SRC).map((file) => ({ file: Path.relative(SRC, file), text: Fs.readFileSync(file, "utf8") }))

describe("the startup module graph", () => {
  it("src imports @effect/* packages module by module, never through a package's index", () => {
    const offenders = files.flatMap(({ file, text }) =>
      staticSpecifiers(text).filter((s) => /^@effect\/[a-z-]+$/.test(s)).map((s) => `${file}: ${s}`)
    )
    expect(files.length).toBeGreaterThan(100)
    expect(offenders).toEqual([])
  })

  it("only the providers' own folders import the OpenAI-compatible providers statically", () => {
    const offenders = files.flatMap(({ file, text }) =>
      file.split(Path.sep).includes("openai")
        ? []
        : staticSpecifiers(text).filter((s) => /\/openai\//.test(s) || s.startsWith("@effect/ai-openai")).map((s) => `${file}: ${s}`)
    )
    expect(offenders).toEqual([])
    // …and the composition root loads them on demand
    expect(files.find((f) => f.file === "App.ts")!.text).toMatch(/import\("\.\/review\/openai\/index\.js"\)/)
  })
})
