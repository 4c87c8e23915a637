/**
 * A bundle's file tree as the service answers it (`data.tree`): folders are disclosure buttons
 * (collapsible, aria-expanded), files are links to their page; the main artifact is marked.
 */
import { useCallback, useState } from "preact/hooks"

export interface TreeNode {
  readonly type: string
  readonly name: string
  readonly path: string
  readonly children?: ReadonlyArray<TreeNode> | undefined
  readonly id?: string | undefined
  readonly isPrimary?: boolean | undefined
}

interface NodeProps {
  readonly node: TreeNode
  readonly depth: number
  readonly hrefOf: (fileId: string) => string
  readonly currentFileId: string | undefined
  readonly collapsed: ReadonlySet<string>
  readonly toggle: (path: string) => void
}

function Node(props: NodeProps) {
  const { node, depth } = props
  const indent = { "--depth": String(depth) }
  if (node.type === "folder") {
    const open = !props.collapsed.has(node.path)
    return (
      <li>
        <button type="button" class="tree-row tree-folder" aria-expanded={open} style={indent} onClick={() => props.toggle(node.path)}>
          <span class="tree-caret" aria-hidden="true">{open ? "▾" : "▸"}</span>
          <span class="tree-name">{node.name}</span>
        </button>
        {open && node.children && node.children.length > 0
          ? (
            <ul class="tree-list">
              {node.children.map((child) => <Node key={child.path} {...props} node={child} depth={depth + 1} />)}
            </ul>
          )
          : null}
      </li>
    )
  }
  const current = node.id !== undefined && node.id === props.currentFileId
  return (
    <li>
      <a
        class={`tree-row tree-file${current ? " tree-current" : ""}`}
        href={node.id ? props.hrefOf(node.id) : undefined}
        aria-current={current ? "page" : undefined}
        style={indent}
        data-path={node.path}
      >
        <span class="tree-name">{node.name}</span>
        {node.isPrimary ? <span class="badge badge-primary" title="The main artifact of this bundle">main</span> : null}
      </a>
    </li>
  )
}

export function FileTree(props: { nodes: ReadonlyArray<TreeNode>; hrefOf: (fileId: string) => string; currentFileId?: string | undefined; label: string }) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set())
  const toggle = useCallback((path: string) =>
    setCollapsed((c) => {
      const next = new Set(c)
      if (next.has(path)) next.delete(path)
      else next.add(path)
      return next
    }), [])
  return (
    <nav aria-label={props.label} class="tree" data-testid="file-tree">
      <ul class="tree-list">
        {props.nodes.map((node) => (
          <Node key={node.path} node={node} depth={0} hrefOf={props.hrefOf} currentFileId={props.currentFileId} collapsed={collapsed} toggle={toggle} />
        ))}
      </ul>
    </nav>
  )
}
