#!/usr/bin/env bash
# Create an isolated worktree + branch for one agent session.
#
# usage: scripts/new-worktree.sh <task-name> [base-ref]
#   task-name  short slug, e.g. fix-login-timeout (becomes branch agent/<task-name>)
#   base-ref   what to branch from (default: the remote's default branch, after a fetch)
#
# Creates ../<repo>-worktrees/<task-name>. Refuses to overwrite an existing
# directory or branch. Never deletes anything.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi

name=$1
if [[ ! $name =~ ^[a-z0-9][a-z0-9._-]*$ ]]; then
  echo "task name must be a lowercase slug (a-z, 0-9, . _ -): $name" >&2
  exit 2
fi

top=$(git rev-parse --show-toplevel)
# Use the main worktree's name even when run from inside another worktree.
main_wt=$(git worktree list --porcelain | awk '/^worktree /{print substr($0, 10); exit}')
repo=$(basename "$main_wt")
root=$(dirname "$main_wt")/${repo}-worktrees
path=$root/$name
branch=agent/$name

remote=$(git remote | head -n1)
if [[ -n $remote ]]; then
  git fetch --quiet "$remote"
fi

if [[ $# -eq 2 ]]; then
  base=$2
elif [[ -n $remote ]] && git symbolic-ref --quiet "refs/remotes/$remote/HEAD" >/dev/null; then
  base=$(git symbolic-ref --short "refs/remotes/$remote/HEAD")
else
  base=HEAD
  echo "note: no remote default branch found; branching from current HEAD of $top" >&2
fi

if [[ -e $path ]]; then
  echo "refusing: $path already exists" >&2
  exit 1
fi
if git show-ref --verify --quiet "refs/heads/$branch"; then
  echo "refusing: branch $branch already exists (checked out at: $(git worktree list | awk -v b="[$branch]" '$NF==b{print $1}'))" >&2
  exit 1
fi

mkdir -p "$root"
git worktree add --no-track -b "$branch" "$path" "$base"

echo
echo "worktree: $path"
echo "branch:   $branch (from $base)"
echo
echo "Not copied (set up per worktree as needed):"
for f in .env .env.local node_modules .venv; do
  [[ -e $main_wt/$f ]] && echo "  - $f exists in the main checkout"
done
echo "  - dependency install, build caches, dev-server port"
