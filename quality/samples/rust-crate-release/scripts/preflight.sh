#!/usr/bin/env bash
# Non-destructive release checks for a Rust crate. Never publishes, tags, or pushes.
# Usage: preflight.sh [-p PACKAGE]
set -euo pipefail

pkg_args=()
pkg_name=""
if [[ "${1:-}" == "-p" && -n "${2:-}" ]]; then
  pkg_name="$2"
  pkg_args=(-p "$pkg_name")
fi

step() { printf '\n==> %s\n' "$*"; }

step "Working tree clean"
if [[ -n "$(git status --porcelain)" ]]; then
  echo "Uncommitted changes; commit or stash first." >&2
  exit 1
fi

step "Format"
cargo fmt --all -- --check

step "Clippy (all features)"
cargo clippy ${pkg_args[@]+"${pkg_args[@]}"} --all-targets --all-features -- -D warnings

step "Tests (all features)"
cargo test ${pkg_args[@]+"${pkg_args[@]}"} --all-features

step "Check (no default features)"
cargo check ${pkg_args[@]+"${pkg_args[@]}"} --no-default-features

if command -v cargo-hack >/dev/null 2>&1; then
  step "Feature powerset"
  cargo hack check ${pkg_args[@]+"${pkg_args[@]}"} --feature-powerset --no-dev-deps
else
  echo "cargo-hack not installed; skipping feature powerset" >&2
fi

# rust-version of the selected package (or the first package that declares one).
msrv="$(cargo metadata --no-deps --format-version 1 | PKG="$pkg_name" python3 -c '
import json, os, sys
pkgs = json.load(sys.stdin)["packages"]
want = os.environ["PKG"]
for p in pkgs:
    if (not want or p["name"] == want) and p.get("rust_version"):
        print(p["rust_version"])
        break
')"
if [[ -n "$msrv" ]]; then
  # Match an installed toolchain such as "1.74.0-x86_64-unknown-linux-gnu" for msrv "1.74".
  toolchain="$(rustup toolchain list | awk '{print $1}' | grep -E "^${msrv//./\\.}([.-]|$)" | head -n1 || true)"
  if [[ -n "$toolchain" ]]; then
    step "MSRV ($msrv via $toolchain)"
    cargo "+${toolchain}" check ${pkg_args[@]+"${pkg_args[@]}"}
  else
    echo "No toolchain for MSRV $msrv; skipping (install with: rustup toolchain install $msrv)" >&2
  fi
fi

if command -v cargo-semver-checks >/dev/null 2>&1; then
  step "Semver checks"
  cargo semver-checks check-release ${pkg_args[@]+"${pkg_args[@]}"}
else
  echo "cargo-semver-checks not installed; skipping" >&2
fi

step "Docs (docs.rs flags)"
if rustup toolchain list | grep -q '^nightly'; then
  RUSTDOCFLAGS="--cfg docsrs" cargo +nightly doc ${pkg_args[@]+"${pkg_args[@]}"} --all-features --no-deps
else
  cargo doc ${pkg_args[@]+"${pkg_args[@]}"} --all-features --no-deps
fi

step "Package contents"
cargo package ${pkg_args[@]+"${pkg_args[@]}"} --list

step "Publish dry run"
cargo publish ${pkg_args[@]+"${pkg_args[@]}"} --dry-run

printf '\nAll checks passed. Nothing was published.\n'
