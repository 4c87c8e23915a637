#!/usr/bin/env bash
# Inventory Jest usage in a JS/TS project before migrating to Vitest.
# Read-only: prints counts, changes nothing.
#
# Usage: scripts/jest_inventory.sh [project-dir]   (default: current directory)

set -euo pipefail

root="${1:-.}"
if [[ ! -d "$root" ]]; then
  echo "error: $root is not a directory" >&2
  exit 2
fi
cd "$root"

# Source files to scan, excluding dependencies and build output.
list_sources() {
  find . \
    \( -name node_modules -o -name .git -o -name dist -o -name build -o -name coverage \) -prune -o \
    -type f \( -name '*.js' -o -name '*.jsx' -o -name '*.ts' -o -name '*.tsx' -o -name '*.mjs' -o -name '*.cjs' \) \
    -print0
}

section() { printf '\n== %s ==\n' "$1"; }

section "Test files"
test_count=$(find . \( -name node_modules -o -name .git \) -prune -o -type f \
  \( -name '*.test.*' -o -name '*.spec.*' -o -path '*/__tests__/*' \) -print | wc -l)
echo "test files: $test_count"

section "jest.* API calls (most used first)"
list_sources | xargs -0 -r grep -hoE '\bjest\.[A-Za-z]+' 2>/dev/null \
  | sort | uniq -c | sort -rn || true

section "Things that need manual attention"
count() {
  # $1 = label, $2 = extended regex
  local n
  n=$(list_sources | xargs -0 -r grep -lE "$2" 2>/dev/null | wc -l || true)
  printf '%-52s %s files\n' "$1" "$n"
}
count "done callbacks (it('...', (done) => ...)"     "(it|test)(\.[a-z]+)?\([^,]+,\s*(async\s*)?\(?\s*done\s*\)?\s*=>"
count "jest.requireActual / requireMock"             "jest\.(requireActual|requireMock)\("
count "jest.isolateModules"                          "jest\.isolateModules"
count "jest.mock with factory"                       "jest\.mock\([^)]*,\s*(\(|function)"
count "jest.setTimeout"                              "jest\.setTimeout\("
count "@jest/globals imports"                        "from ['\"]@jest/globals['\"]"
count "jest types (jest.Mock, jest.Mocked, ...)"     "jest\.(Mock|Mocked|MockedFunction|SpyInstance)\b"
count "@testing-library/jest-dom"                    "@testing-library/jest-dom"

section "__mocks__ directories"
find . -name node_modules -prune -o -type d -name __mocks__ -print

section "Snapshot files"
find . -name node_modules -prune -o -type f -name '*.snap' -print | wc -l

section "Jest config"
for f in jest.config.js jest.config.ts jest.config.cjs jest.config.mjs jest.config.json; do
  [[ -f "$f" ]] && echo "found $f"
done
if [[ -f package.json ]] && grep -q '"jest"[[:space:]]*:' package.json; then
  echo "package.json contains a \"jest\" key (config block or dependency)"
fi
echo
echo "Done. Nothing was modified."
