/** The folder tree of a bundle's active files: folders first, then files, each sorted by name. */
export interface TreeFile {
  readonly id: string
  readonly artifactBundleId: string
  readonly path: string
  readonly artifactType: string
  readonly status: string
  readonly isPrimary: boolean
  readonly sizeBytes: number
  readonly metadata: { readonly detectedLanguage: string }
}

export interface FolderNode {
  readonly type: "folder"
  readonly name: string
  readonly path: string
  readonly children: Array<TreeNode>
}

export interface FileNode {
  readonly type: "file"
  readonly name: string
  readonly path: string
  readonly id: string
  readonly artifactBundleId: string
  readonly artifactType: string
  readonly status: string
  readonly language: string
  readonly isPrimary: boolean
  readonly sizeBytes: number
}

export type TreeNode = FolderNode | FileNode

const byTypeThenName = (a: TreeNode, b: TreeNode) =>
  a.type !== b.type ? (a.type === "folder" ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0

/** The top-level nodes of the tree (the bundle root itself is implicit). */
export const buildTree = (files: ReadonlyArray<TreeFile>): Array<TreeNode> => {
  const root: FolderNode = { type: "folder", name: "", path: "", children: [] }
  const folders = new Map<string, FolderNode>([["", root]])
  const folderFor = (path: string): FolderNode => {
    const existing = folders.get(path)
    if (existing) return existing
    const slash = path.lastIndexOf("/")
    const parent = folderFor(slash < 0 ? "" : path.slice(0, slash))
    const node: FolderNode = { type: "folder", name: path.slice(slash + 1), path, children: [] }
    parent.children.push(node)
    folders.set(path, node)
    return node
  }
  for (const file of files) {
    const slash = file.path.lastIndexOf("/")
    folderFor(slash < 0 ? "" : file.path.slice(0, slash)).children.push({
      type: "file",
      name: file.path.slice(slash + 1),
      path: file.path,
      id: file.id,
      artifactBundleId: file.artifactBundleId,
      artifactType: file.artifactType,
      status: file.status,
      language: file.metadata.detectedLanguage,
      isPrimary: file.isPrimary,
      sizeBytes: file.sizeBytes
    })
  }
  const sort = (node: FolderNode) => {
    node.children.sort(byTypeThenName)
    for (const child of node.children) if (child.type === "folder") sort(child)
  }
  sort(root)
  return root.children
}
