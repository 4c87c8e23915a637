/**
 * Markdown rendered for reading, and made inert: marked turns it into HTML, DOMPurify removes every
 * script, event handler, `javascript:` URL, frame, form and style, and links open outside the app
 * without a referrer. A file can hold anything; nothing in it runs. Front matter is shown as facts.
 */
import DOMPurify from "dompurify"
import { Marked } from "marked"

const marked = new Marked({ gfm: true, breaks: false, async: false })

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    const href = node.getAttribute("href") ?? ""
    if (/^(https?:|mailto:)/i.test(href)) {
      node.setAttribute("target", "_blank")
      node.setAttribute("rel", "noopener noreferrer")
    } else if (!href.startsWith("#")) {
      // a relative link points into the bundle, not at this app's routes: keep the text, drop the link
      node.removeAttribute("href")
    }
  }
  if (node.tagName === "IMG") {
    // images from elsewhere would leak the reader to a third party; the CSP blocks them anyway
    const src = node.getAttribute("src") ?? ""
    if (!/^data:image\//i.test(src)) {
      node.setAttribute("data-blocked-src", src)
      node.removeAttribute("src")
      node.setAttribute("alt", `Image not shown: ${node.getAttribute("alt") || src}`)
    } else if (!node.hasAttribute("alt")) node.setAttribute("alt", "")
  }
})

export const sanitize = (html: string) =>
  DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "frame", "object", "embed", "link", "meta", "base"],
    FORBID_ATTR: ["style", "srcset", "formaction", "action"]
  })

export interface FrontMatter {
  readonly fields: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

/** `---\nkey: value\n---` at the top: its `key: value` lines, and the text after it. */
export const splitFrontMatter = (text: string): FrontMatter => {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text)
  if (!match) return { fields: [], body: text }
  const fields = match[1]!
    .split(/\r?\n/)
    .map((line) => /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1]!, m[2]!.replace(/^["']|["']$/g, "")] as const)
  return { fields, body: text.slice(match[0].length) }
}

export const renderMarkdown = (text: string) => sanitize(marked.parse(text) as string)
