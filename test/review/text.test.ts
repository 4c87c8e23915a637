/** The shared text utilities: frontmatter, markdown scanning, bundle references, token estimates. */
import { describe, expect, it } from "@effect/vitest"
import { getField, parseFrontmatter, yamlScalar } from "../../src/markdown/Frontmatter.js"
import { splitText, joinText } from "../../src/markdown/Lines.js"
import { analyzeMarkdown, linkPath, plainText } from "../../src/markdown/Markdown.js"
import { globToRegExp, relativePath, resolvePath } from "../../src/markdown/Paths.js"
import { extractReferences } from "../../src/markdown/References.js"
import { countWords, estimateTokens } from "../../src/ai/Tokens.js"

const md = (text: string) => {
  const fm = parseFrontmatter(text)
  return analyzeMarkdown(splitText(text).lines, fm.closed ? fm.bodyStartLine : 1)
}

describe("frontmatter", () => {
  it("reads plain keys, a license key and a nested metadata map, keeping the raw block exactly", () => {
    const text = "---\nname: gh-fix-ci\ndescription: Fix CI. Use when checks fail.\nlicense: Complete terms in LICENSE.txt\nmetadata:\n  short-description: Fix failing CI\n---\n\n# Body\n"
    const fm = parseFrontmatter(text)
    expect(fm).toMatchObject({ present: true, closed: true, endLine: 7, bodyStartLine: 8, issues: [] })
    expect(fm.raw).toBe(text.slice(0, text.indexOf("---\n\n") + 4))
    expect(getField(fm, "license")?.value).toBe("Complete terms in LICENSE.txt")
    const meta = getField(fm, "metadata")!
    expect(meta.kind).toBe("map")
    expect(meta.children).toMatchObject([{ key: "short-description", value: "Fix failing CI", line: 6 }])
  })

  it("unquotes quoted values, joins block scalars and reads lists", () => {
    const fm = parseFrontmatter(
      "---\nname: 'it''s'\ndescription: \"You MUST use this: always\"\nlong: >\n  folded\n  text\nallowed-tools:\n  - Read\n  - Bash\ntags: [a, b]\n---\n"
    )
    expect(fm.issues).toEqual([])
    expect(getField(fm, "name")?.value).toBe("it's")
    expect(getField(fm, "description")?.value).toBe("You MUST use this: always")
    expect(getField(fm, "long")).toMatchObject({ kind: "block", value: "folded text", line: 4, endLine: 6 })
    expect(getField(fm, "allowed-tools")?.items).toEqual(["Read", "Bash"])
    expect(getField(fm, "tags")?.items).toEqual(["a", "b"])
  })

  it("reports what a strict YAML parser would reject, with line numbers", () => {
    const fm = parseFrontmatter("---\nname: x\ndescription: Does this: and that\nname: y\nnot a key line\n---\n")
    expect(fm.issues.map((i) => [i.line, i.severity])).toEqual([[3, "major"], [4, "major"], [5, "major"]])
    expect(fm.issues[1]!.message).toMatch(/Duplicate key 'name'/)
  })

  it("detects a missing or unclosed block, and keeps CRLF bytes in raw", () => {
    expect(parseFrontmatter("# Title\n").present).toBe(false)
    expect(parseFrontmatter("\n---\nname: x\n---\n").present).toBe(false)
    const unclosed = parseFrontmatter("---\nname: x\n# Title\n")
    expect(unclosed).toMatchObject({ present: true, closed: false })
    expect(unclosed.issues[0]!.severity).toBe("critical")
    const crlf = "---\r\nname: x\r\n---\r\nBody\r\n"
    expect(parseFrontmatter(crlf).raw).toBe("---\r\nname: x\r\n---\r\n")
  })

  it("quotes YAML scalars only when needed", () => {
    expect(yamlScalar("Plain text. Use when asked.")).toBe("Plain text. Use when asked.")
    expect(yamlScalar("Has: a colon")).toBe("\"Has: a colon\"")
    expect(yamlScalar("`code` first")).toBe("\"`code` first\"")
  })
})

describe("lines", () => {
  it("splits and joins without losing the final newline or CRLF", () => {
    for (const t of ["a\nb\n", "a\nb", "a\r\nb\r\n", ""]) {
      const s = splitText(t)
      expect(joinText(s.lines, s.eol, s.finalNewline)).toBe(t)
    }
    expect(splitText("a\r\nb\nc").mixedEol).toBe(true)
  })
})

describe("markdown", () => {
  const text = [
    "---", "name: x", "---", "# Title", "", "```bash", "# not a heading", "[x](in-code.md)", "```", "",
    "## Steps", "1. Read it", "2) Run `cat [y](not-a-link.md)`", "   - nested bullet", "", "See [guide](reference/guide.md#part \"Guide\").",
    "~~~", "unclosed"
  ].join("\n")
  const doc = md(text)

  it("finds fenced code (closed and unclosed), headings outside code, and both ordered list styles", () => {
    expect(doc.codeBlocks.map((b) => [b.startLine, b.endLine, b.info, b.closed])).toEqual([[6, 9, "bash", true], [17, 18, "", false]])
    expect(doc.headings.map((h) => [h.line, h.level, h.text])).toEqual([[4, 1, "Title"], [11, 2, "Steps"]])
    expect(doc.listItems.map((i) => [i.line, i.ordered, i.number, i.marker])).toEqual([[12, true, 1, "."], [13, true, 2, ")"], [14, false, 0, "-"]])
  })

  it("finds links outside code and inline code, with the target's column", () => {
    expect(doc.links.map((l) => [l.line, l.target, l.text])).toEqual([[16, "reference/guide.md#part", "guide"]])
    const l = doc.links[0]!
    expect(text.split("\n")[15]!.slice(l.column, l.column + l.target.length)).toBe(l.target)
    expect(linkPath(l.target)).toBe("reference/guide.md")
    expect(linkPath("https://x.dev/a.md")).toBeNull()
    expect(linkPath("#anchor")).toBeNull()
    expect(linkPath("mailto:a@b.c")).toBeNull()
    expect(linkPath("my%20file.md")).toBe("my file.md")
  })
})

describe("bundle references", () => {
  const refs = (body: string) => extractReferences(md(body)).map((r) => `${r.kind}:${r.path}${r.rootRelative ? "@root" : ""}`)

  it("extracts markdown links, bare paths in prose and inline code, folders and skill-root placeholders", () => {
    expect(
      refs(
        "Read [a](./reference/a.md) and examples/b.md, then run `python \"<path-to-skill>/scripts/x.py\" --json`.\nLoad files from `examples/` or `reference/*-db.md`; see `faq.md`."
      )
    ).toEqual([
      "link:./reference/a.md",
      "path:examples/b.md",
      "path:scripts/x.py@root",
      "path:examples/",
      "path:reference/*-db.md",
      "name:faq.md"
    ])
  })

  it("ignores code blocks, URLs, anchors, home and absolute paths, packages, domains and slashed words", () => {
    expect(
      refs(
        [
          "```", "cat scripts/in-code.py", "```",
          "See https://example.com/a/b.md, [top](#top), `~/.config/x/y.toml`, `/etc/x/y.conf`, `npx @scope/pkg`,",
          "github.com/org/repo.md, CI/CD, and/or, workflow/repo scopes, Node/TypeScript, v1.2/3.4."
        ].join("\n")
      )
    ).toEqual([])
  })

  it("strips sentence punctuation after a path", () => {
    expect(refs("Finally read reference/guide.md.")).toEqual(["path:reference/guide.md"])
  })
})

describe("paths", () => {
  it("resolves, relativizes and globs bundle paths", () => {
    expect(resolvePath("skills/a", "../b/c.md")).toBe("skills/b/c.md")
    expect(resolvePath("", "../x.md")).toBeNull()
    expect(relativePath("skills/a", "skills/a/ref/x.md")).toBe("ref/x.md")
    expect(relativePath("skills/a", "shared/x.md")).toBe("../../shared/x.md")
    expect(globToRegExp("reference/*-database.md").test("reference/faq-database.md")).toBe(true)
    expect(globToRegExp("reference/*.md").test("reference/deep/x.md")).toBe(false)
  })
})

describe("estimateTokens", () => {
  it("counts ceil(ascii/4) plus one token per non-ASCII code point", () => {
    expect(estimateTokens("")).toBe(0)
    expect(estimateTokens("abcd")).toBe(1)
    expect(estimateTokens("abcde")).toBe(2)
    expect(estimateTokens("héllo")).toBe(2)
    expect(estimateTokens("日本語")).toBe(3)
    expect(estimateTokens("👍")).toBe(1)
    expect(estimateTokens("x".repeat(4000))).toBe(1000)
  })

  it("counts words", () => {
    expect(countWords("Don't split well-known words, 3 times.")).toBe(6)
    expect(countWords("使用 Playwright 测试")).toBe(5)
  })
})

describe("plainText", () => {
  it("strips emphasis, links and code ticks but keeps snake_case identifiers", () => {
    expect(plainText("**Run** `sandbox_permissions=require_escalated` and _then_ see [docs](a.md)")).toBe(
      "Run sandbox_permissions=require_escalated and then see docs"
    )
  })
})
