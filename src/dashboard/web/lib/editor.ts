/**
 * CodeMirror 6 for a file's text: line numbers, undo history, markdown highlighting, Mod-s to save.
 * It lives in a shadow root: CodeMirror then styles itself with constructed stylesheets (adopted by
 * the shadow root) rather than a <style> element, which the page's CSP (style-src 'self') refuses.
 * The page's CSS custom properties (colours, fonts) reach inside.
 */
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands"
import { markdown } from "@codemirror/lang-markdown"
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language"
import { EditorState } from "@codemirror/state"
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view"

const theme = EditorView.theme({
  "&": { fontSize: "13.5px", fontFamily: "var(--sans)", color: "var(--text)", border: "1px solid var(--border)", borderRadius: "8px", backgroundColor: "var(--surface)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "2px" },
  ".cm-content": { fontFamily: "var(--mono)", padding: "12px 0", minHeight: "420px" },
  ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--text-3)", borderRight: "1px solid var(--border)", borderRadius: "8px 0 0 8px" },
  ".cm-activeLine": { backgroundColor: "var(--accent-soft)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent-soft)" }
})

export const mountEditor = (
  parent: HTMLElement,
  options: { doc: string; label: string; onChange: (text: string) => void; onSave: () => void }
): (() => void) => {
  const holder = document.createElement("div")
  parent.append(holder)
  const shadow = holder.attachShadow({ mode: "open" })
  const mount = document.createElement("div")
  shadow.append(mount)
  const view = new EditorView({
    root: shadow,
    parent: mount,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        markdown(),
        syntaxHighlighting(defaultHighlightStyle),
        EditorView.lineWrapping,
        keymap.of([{ key: "Mod-s", preventDefault: true, run: () => (options.onSave(), true) }, ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ "aria-label": options.label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString())
        }),
        theme
      ]
    })
  })
  return () => {
    view.destroy()
    holder.remove()
  }
}
