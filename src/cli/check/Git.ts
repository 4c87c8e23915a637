/**
 * `--changed-since REF`: the files that differ from a git ref, asked of `git` itself (so every git
 * feature that decides what "differs" means, renames, sparse checkouts, worktrees, holds). Without
 * git, outside a repository, or with a ref git does not know: a usage error (exit 2), before any
 * request.
 */
import { execFileSync } from "node:child_process"
import { usage } from "../Failure.js"

const git = (root: string, args: ReadonlyArray<string>, onFailure?: string): string => {
  try {
    return execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string }
    if (e.code === "ENOENT") throw usage("--changed-since needs git, and no `git` was found on the PATH.")
    const said = String(e.stderr ?? e.message).trim().split("\n")[0] ?? ""
    if (/not a git repository/i.test(said)) throw usage(`--changed-since needs a git repository, and ${root} is not in one.`)
    throw usage(onFailure ?? `git could not compare with the ref: ${said}`)
  }
}

/**
 * The repository-relative paths (relative to `root`) that differ between `ref` and the working tree:
 * committed, staged and unstaged changes, deletions and untracked files git does not ignore.
 */
export const changedSince = (root: string, ref: string): ReadonlySet<string> => {
  if (ref.startsWith("-")) throw usage(`--changed-since ${ref}: a ref does not start with "-".`)
  git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], `--changed-since ${ref}: git knows no such commit (a branch, tag or commit; in CI, fetch it first, e.g. \`git fetch origin main\` and --changed-since origin/main).`)
  const lines = (out: string) => out.split("\0").filter((l) => l !== "")
  // --relative with -C: paths relative to root, and only those under it
  const changed = lines(git(root, ["diff", "--name-only", "-z", "--no-renames", "--relative", ref, "--"]))
  const untracked = lines(git(root, ["ls-files", "-z", "--others", "--exclude-standard"]))
  return new Set([...changed, ...untracked])
}
