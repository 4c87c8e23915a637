/**
 * The layers of docs/architecture.md, held by a test: shared folders never import a feature, a lower
 * shared layer never imports a higher one, and no two source files import each other, directly or
 * around a circle. Imports are read with the TypeScript compiler's own pre-parser (type-only imports
 * included: a circle through types still ties two files together for a reader).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const SRC = Path.join(import.meta.dirname, "..", "src")

/**
 * The shared layers, lowest first. A folder may import its own layer and the ones below; a folder
 * not listed is a feature, which may import any shared folder and other features (never in a circle).
 */
const SHARED_LAYERS: ReadonlyArray<ReadonlyArray<string>> = [
  ["domain", "config", "Version.ts"], // vocabulary and configuration: no services
  ["process", "telemetry", "ai", "markdown"], // the process's plain lines and start-up failures, logs and traces, the AI providers' shared call and usage, the markdown model and section vocabulary
  ["db"], // the database (it says its start-up failures through process/)
  ["storage", "limits", "credits"], // the platform's own services: object storage, rate limits, the ledger
  ["identity"], // users and API keys (the signup grant goes through the ledger)
  ["auth"], // who is calling: login tokens and API keys resolved to an actor
  ["http"], // the HTTP plumbing (envelopes, errors, pagination, the route table)
  ["jobs"] // the job runner and the run pipeline
]
const layerOf = new Map(SHARED_LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)))

/** The composition root: the contract (Api.ts), its routes, the server (Http.ts), the app, main and its lifecycle. */
const ROOT = new Set(["Api.ts", "Routes.ts", "Http.ts", "App.ts", "main.ts", "Lifecycle.ts"])
/** A folder's REST door (its endpoint group and handlers) may import the root's contract. */
const isDoor = (file: string) => /^[^/]+\/(Api|Http)\.ts$/.test(file)
const CONTRACT = new Set(["Api.ts", "Routes.ts"])

const sourceFiles = (dir: string): Array<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = Path.join(dir, entry.name)
    if (entry.isDirectory()) return full.endsWith(Path.join("dashboard", "web")) ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : []
  })

/** The source file a relative import of `file` names (`./x.js` is `./x.ts`), or its bare path when none exists. */
const resolveImport = (file: string, spec: string): { readonly path: string; readonly exists: boolean } => {
  const resolved = Path.resolve(Path.dirname(file), spec.replace(/\.js$/, ""))
  const found = [".ts", ".tsx", "/index.ts"].map((ext) => resolved + ext).find((f) => Fs.existsSync(f))
  return { path: found ?? resolved, exists: found !== undefined }
}

/** Each source file (relative to src/) and the source files it imports. */
const importGraph = (): Map<string, Array<string>> => {
  const graph = new Map<string, Array<string>>()
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(Fs.readFileSync(file, "utf8"), true, true)
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => Path.relative(SRC, resolveImport(file, spec).path))
    graph.set(Path.relative(SRC, file), [...new Set(targets)])
  }
  return graph
}

const topOf = (file: string) => file.split("/")[0]!

/** Why importing `to` from `from` breaks a layer, or undefined when it may. */
const breach = (from: string, to: string): string | undefined => {
  const fromTop = topOf(from)
  const toTop = topOf(to)
  if (fromTop === toTop || ROOT.has(from)) return undefined
  const fromRank = layerOf.get(fromTop)
  if (ROOT.has(to)) {
    // the contract is what doors serve and what the typed client, MCP and the docs page read off
    return CONTRACT.has(to) && (fromRank === undefined || isDoor(from)) ? undefined : "only the root, doors and features read the root's contract"
  }
  if (fromRank === undefined) return undefined // a feature may import any shared folder and other features
  const toRank = layerOf.get(toTop)
  if (toRank === undefined) return "a shared folder imports a feature"
  // a shared folder's REST door sits on the HTTP plumbing, whatever its folder's layer
  return toRank > fromRank && !isDoor(from) ? `a shared layer imports a higher one (${fromTop} → ${toTop})` : undefined
}

/** Strongly connected components of more than one file (Tarjan): each is a circle of imports. */
const circles = (graph: Map<string, Array<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  let next = 0
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

describe("the layers (docs/architecture.md)", () => {
  const graph = importGraph()

  it("reads the whole tree", () => {
    expect(graph.size).toBeGreaterThan(250)
    expect(graph.get("Http.ts")).toContain("Api.ts")
  })

  it("the rule fails where it should (a shared folder importing a feature, a lower layer a higher, a feature the root)", () => {
    expect(breach("jobs/Runner.ts", "audits/Task.ts")).toBe("a shared folder imports a feature")
    expect(breach("domain/Errors.ts", "http/Envelope.ts")).toMatch(/higher one/)
    expect(breach("jobs/Runner.ts", "Api.ts")).toMatch(/root/)
    expect(breach("audits/Audits.ts", "Http.ts")).toMatch(/root/)
    expect(breach("credits/Http.ts", "Api.ts")).toBeUndefined()
    expect(breach("credits/Ledger.ts", "http/Envelope.ts")).toMatch(/higher one/)
    expect(breach("http/Body.ts", "domain/Errors.ts")).toBeUndefined()
    expect(breach("process/Say.ts", "db/Availability.ts")).toMatch(/higher one/)
    expect(breach("db/Database.ts", "process/StartupFailure.ts")).toBeUndefined()
    expect(circles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]], ["d.ts", ["a.ts"]]]))).toEqual([["a.ts", "b.ts", "c.ts"]])
  })

  it("no shared folder imports a feature or a higher layer, and only doors import the root", () => {
    const breaches = [...graph].flatMap(([from, targets]) =>
      targets.flatMap((to) => {
        const why = breach(from, to)
        return why === undefined ? [] : [`${from} → ${to}: ${why}`]
      })
    )
    expect(breaches).toEqual([])
  })

  it("no file imports itself back through others", () => {
    expect(circles(graph)).toEqual([])
  })

  it("a feature's providers (its mock/ and openai/ folders) are its own: other features share kernels, and the root wires the providers", () => {
    const internal = /^([^/]+)\/(mock|openai)\//
    const reaches = [...graph].flatMap(([from, targets]) =>
      ROOT.has(from)
        ? []
        : targets.flatMap((to) => {
          const m = internal.exec(to)
          return m && !layerOf.has(m[1]!) && topOf(from) !== m[1] ? [`${from} → ${to}`] : []
        })
    )
    expect(reaches).toEqual([])
  })

  it("one section vocabulary: only src/markdown/Sections.ts declares what a heading means", () => {
    const declarations = [...graph.keys()].flatMap((file) => {
      if (file === "markdown/Sections.ts") return []
      const text = Fs.readFileSync(Path.join(SRC, file), "utf8")
      return [...text.matchAll(/^(?:export )?const ([A-Z_]*(?:_HEADING|_TITLE|_SECTION)S?) =\s*\//gm)].map((m) => `${file}: ${m[1]}`)
    })
    expect(declarations).toEqual([])
    expect(Fs.readFileSync(Path.join(SRC, "markdown/Sections.ts"), "utf8")).toMatch(/export const STEP_HEADING =/)
  })

  it("no shared folder imports itself back through another (their doors aside)", () => {
    const folders = new Map<string, Array<string>>()
    for (const [from, targets] of graph) {
      if (!layerOf.has(topOf(from)) || isDoor(from)) continue
      const shared = targets.map(topOf).filter((to) => layerOf.has(to) && to !== topOf(from))
      folders.set(topOf(from), [...new Set([...(folders.get(topOf(from)) ?? []), ...shared])])
    }
    expect(folders.get("db")).toContain("process")
    expect(circles(folders)).toEqual([])
  })
})

// ---------------------------------------------------------------- units a reader can hold

const MAX_FUNCTION_LINES = 100
const MAX_FILE_LINES = 600

/** Every .ts/.tsx file of src/, the dashboard's app included. */
const allSourceFiles = (dir: string): Array<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = Path.join(dir, entry.name)
    if (entry.isDirectory()) return allSourceFiles(full)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : []
  })

/** A function's name as a reader finds it: the names of the declarations around it, outermost first (`Jobs.effect`). */
const qualifiedName = (node: ts.Node): string => {
  const names: Array<string> = []
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    const name = ts.isClassDeclaration(at) || ts.isFunctionDeclaration(at) || ts.isVariableDeclaration(at) ||
        ts.isPropertyAssignment(at) || ts.isPropertyDeclaration(at) || ts.isMethodDeclaration(at)
      ? at.name
      : undefined
    if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) names.unshift(name.text)
  }
  return names.length > 0 ? names.join(".") : "(anonymous)"
}

/** The functions of one file longer than the limit, by name, with their lengths. */
const longFunctionsOf = (file: string, text: string): Array<readonly [string, number]> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<readonly [string, number]> = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      if (last - first + 1 > MAX_FUNCTION_LINES) found.push([qualifiedName(node), last - first + 1])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Each function of src/ longer than the limit, as `file: name`, with its length (the longest of a name). */
const longFunctions = (): Map<string, number> => {
  const found = new Map<string, number>()
  for (const file of allSourceFiles(SRC)) {
    for (const [name, lines] of longFunctionsOf(file, Fs.readFileSync(file, "utf8"))) {
      const key = `${Path.relative(SRC, file)}: ${name}`
      found.set(key, Math.max(found.get(key) ?? 0, lines))
    }
  }
  return found
}


describe("units a reader can hold (issue 25)", () => {
  it(`no file of src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = allSourceFiles(SRC)
      .map((file) => ({ file: Path.relative(SRC, file), lines: Fs.readFileSync(file, "utf8").split("\n").length }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
    expect(long).toEqual([])
  })

  it(`no function of src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect([...longFunctions()].map(([key, lines]) => `${key}: ${lines} lines`)).toEqual([])
  })

  it("the size rule fails where it should", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join("\n")
    const text = `export class Jobs {\n  effect = () => {\n    const list = function() {\n${body(98)}\n    }\n  }\n}\n`
    // list: 100 lines (fits); effect: 102 lines (too long), named by the declarations around it
    expect(longFunctionsOf("x.ts", text)).toEqual([["Jobs.effect", 102]])
    expect(longFunctionsOf("x.ts", `function short() {\n${body(98)}\n}\n`)).toEqual([])
    expect(longFunctionsOf("x.ts", `const long = async () => {\n${body(99)}\n}\n`)).toEqual([["long", 101]])
  })
})

/** The files `entry` reaches by relative imports, itself included, and the packages each imports. */
const reachedImports = (entry: string): Map<string, Array<string>> => {
  const seen = new Map<string, Array<string>>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    const specs = ts.preProcessFile(Fs.readFileSync(file, "utf8"), true, true).importedFiles.map((i) => i.fileName)
    seen.set(file, specs.filter((spec) => !spec.startsWith(".")))
    for (const spec of specs.filter((s) => s.startsWith("."))) {
      const target = resolveImport(file, spec)
      if (target.exists) visit(target.path)
    }
  }
  visit(entry)
  return seen
}

describe("the benchmarks run outside vitest (npm run bench)", () => {
  it("no module `npm run bench` loads imports vitest, which cannot load outside a vitest run", () => {
    const bench = Path.join(import.meta.dirname, "..", "bench", "run.ts")
    const reached = reachedImports(bench)
    // it reaches the test support it shares with the tests (the fake OpenAI server, the processes)
    expect([...reached.keys()].some((f) => f.includes(`${Path.sep}test${Path.sep}support${Path.sep}`))).toBe(true)
    const withVitest = [...reached].filter(([, packages]) => packages.some((p) => p === "vitest" || p === "@effect/vitest"))
    expect(withVitest.map(([file]) => Path.relative(Path.join(import.meta.dirname, ".."), file))).toEqual([])
  })
})
