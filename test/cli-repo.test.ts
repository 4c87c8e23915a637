/** `rubr check` over a repository: what it finds (src/cli/repo/Discovery.ts) and how the configuration narrows it (Config.ts). */
import { describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { compileConfig, ConfigProblem, defaultConfig, findRoot, loadConfig } from "../src/cli/repo/Config.js"
import { bundleNameFor, discover, singleFileKind } from "../src/cli/repo/Discovery.js"

const tree = (files: Record<string, string>) => {
  const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-repo-"))
  for (const [path, content] of Object.entries(files)) {
    Fs.mkdirSync(Path.dirname(Path.join(root, path)), { recursive: true })
    Fs.writeFileSync(Path.join(root, path), content)
  }
  return root
}

const SKILL = "---\nname: x\ndescription: Use when testing.\n---\n# X\n"

const repository = () =>
  tree({
    ".gitignore": "build/\n*.tmp\n",
    "skills/alpha/SKILL.md": SKILL,
    "skills/alpha/reference.md": "ref",
    "skills/alpha/scratch.tmp": "ignored by *.tmp",
    "skills/alpha/nested/SKILL.md": SKILL,
    "skills/alpha/nested/notes.md": "nested",
    "plugins/web/skills/beta/SKILL.md": SKILL,
    "plugins/web/commands/deploy.md": "# Deploy",
    ".claude/commands/review.md": "# Review",
    "AGENTS.md": "# Agents",
    "docs/CLAUDE.md": "# Claude",
    "docs/guide.md": "not an artifact",
    "prompts/triage.md": "# Triage",
    ".github/prompts/release.prompt.md": "# Release",
    ".github/copilot-instructions.md": "# Copilot",
    "flows/deploy.rubr_flow": "rubr_flow: 1.0\n",
    "README.md": "# Readme",
    "build/SKILL.md": SKILL,
    "node_modules/pkg/SKILL.md": SKILL,
    "vendor/.gitignore": "generated/\n",
    "vendor/generated/SKILL.md": SKILL,
    "vendor/kept/SKILL.md": SKILL
  })

describe("discovery", () => {
  it("finds each skill folder (nested ones apart) and each instruction file outside them; .gitignore at every depth is honoured", () => {
    const root = repository()
    const found = discover(root, [""], defaultConfig)
    expect(found.artifacts.map((a) => [a.kind, a.path])).toEqual([
      ["command", ".claude/commands/review.md"],
      ["agent-instructions", ".github/copilot-instructions.md"],
      ["prompt", ".github/prompts/release.prompt.md"],
      ["agent-instructions", "AGENTS.md"],
      ["agent-instructions", "docs/CLAUDE.md"],
      ["rubr_flow", "flows/deploy.rubr_flow"],
      ["command", "plugins/web/commands/deploy.md"],
      ["skill", "plugins/web/skills/beta"],
      ["prompt", "prompts/triage.md"],
      ["skill", "skills/alpha"],
      ["skill", "skills/alpha/nested"],
      ["skill", "vendor/kept"]
    ])
    const alpha = found.artifacts.find((a) => a.path === "skills/alpha")!
    expect(alpha.files).toEqual(["skills/alpha/SKILL.md", "skills/alpha/reference.md"])
    expect(alpha.main).toBe("skills/alpha/SKILL.md")
    expect(found.artifacts.find((a) => a.path === "skills/alpha/nested")!.files).toEqual(["skills/alpha/nested/SKILL.md", "skills/alpha/nested/notes.md"])
    expect(alpha.bundleName).toBe("skills/alpha")
  })

  it("a path given below the root keeps the root's .gitignore rules and repository-relative paths", () => {
    const root = repository()
    const found = discover(root, ["skills"], defaultConfig)
    expect(found.artifacts.map((a) => a.path)).toEqual(["skills/alpha", "skills/alpha/nested"])
    expect(discover(root, ["skills/alpha/SKILL.md"], defaultConfig).artifacts.map((a) => a.path)).toEqual(["skills/alpha", "skills/alpha/nested"])
    expect(discover(root, ["AGENTS.md"], defaultConfig).artifacts.map((a) => a.path)).toEqual(["AGENTS.md"])
  })

  it("what is a single-file artifact", () => {
    expect(singleFileKind("notes/CLAUDE.md")).toBe("agent-instructions")
    expect(singleFileKind(".cursor/commands/fix.md")).toBe("command")
    expect(singleFileKind("src/commands/handler.md")).toBeUndefined()
    expect(singleFileKind("commands/x.md")).toBeUndefined()
    expect(singleFileKind("a/b.prompt.md")).toBe("prompt")
    expect(singleFileKind("docs/guide.md")).toBeUndefined()
    expect(singleFileKind("x.rubr_flow")).toBe("rubr_flow")
  })

  it("bundle names: the prefix and the path; a path outside the repository by its own part; at most 100 characters", () => {
    expect(bundleNameFor("acme/", "skills/pdf", "repo")).toBe("acme/skills/pdf")
    expect(bundleNameFor("", "../other/skill", "repo")).toBe("other/skill")
    expect(bundleNameFor("", "", "repo")).toBe("repo")
    expect(bundleNameFor("", `skills/${"x".repeat(200)}`, "repo").length).toBeLessThanOrEqual(100)
  })
})

describe("the configuration", () => {
  it("include, exclude, the prefix, per-path gates and rules turned off", () => {
    const config = compileConfig("rubr.config.json", {
      include: ["skills/", "AGENTS.md"],
      exclude: ["skills/alpha/nested/**"],
      bundlePrefix: "acme/",
      minScore: 70,
      failOn: "major",
      overrides: [{ files: ["skills/legacy/**"], minScore: 40 }, { files: ["skills/legacy/strict/**"], failOn: "minor" }],
      rules: { "SK-LEN-OVER-BUDGET": "off", "SK-SAFE-SECRET": "on" }
    })
    const found = discover(repository(), [""], config)
    expect(found.artifacts.map((a) => a.bundleName)).toEqual(["acme/AGENTS.md", "acme/skills/alpha"])
    expect(config.gatesFor("skills/pdf")).toEqual({ minScore: 70, failOn: "major" })
    expect(config.gatesFor("skills/legacy/old")).toEqual({ minScore: 40, failOn: "major" })
    expect(config.gatesFor("skills/legacy/strict/x")).toEqual({ minScore: 40, failOn: "minor" })
    expect([...config.rulesOff]).toEqual(["SK-LEN-OVER-BUDGET"])
  })

  it.each([
    [{ inclued: ["skills/**"] }, /rubr\.config\.json: inclued: is not a setting rubr knows/],
    [{ include: ["skills/[a"] }, /include: "skills\/\[a" is not a glob/],
    [{ minScore: 101 }, /minScore: /],
    [{ failOn: "severe" }, /failOn: /],
    [{ rules: { "SK-NO-SUCH-RULE": "off" } }, /rules\.SK-NO-SUCH-RULE: no rule has this id/],
    [{ overrides: [{ files: [] }] }, /overrides\.0\.files/]
  ])("%j is refused with the file and the key named", (raw, message) => {
    expect(() => compileConfig("rubr.config.json", raw)).toThrow(ConfigProblem)
    expect(() => compileConfig("rubr.config.json", raw)).toThrow(message)
  })

  it("reads rubr.config.json or .rubr.yaml at the root, not both; finds the root from a folder below it", () => {
    const json = tree({ "rubr.config.json": JSON.stringify({ bundlePrefix: "j/" }), "skills/a/SKILL.md": SKILL })
    expect(loadConfig(json).bundlePrefix).toBe("j/")
    expect(findRoot(Path.join(json, "skills/a"))).toBe(json)
    const yaml = tree({ ".rubr.yaml": "bundlePrefix: y/\nexclude:\n  - drafts/**\n" })
    expect(loadConfig(yaml).bundlePrefix).toBe("y/")
    expect(loadConfig(yaml).selects("drafts/x/SKILL.md")).toBe(false)
    const both = tree({ "rubr.config.json": "{}", ".rubr.yaml": "" })
    expect(() => loadConfig(both)).toThrow(/keep one configuration file/)
    const broken = tree({ "rubr.config.json": "{ not json" })
    expect(() => loadConfig(broken)).toThrow(/rubr\.config\.json: not valid JSON/)
    expect(loadConfig(tree({}))).toBe(defaultConfig)
  })
})
