#!/usr/bin/env bash
# Read-only preflight for tearing down a non-production environment.
# Exits non-zero if anything about the current AWS / Terraform / kube setup
# doesn't match what the caller says they're about to destroy.
#
# Usage:
#   teardown-preflight.sh --env NAME --account AWS_ACCOUNT_ID \
#       --workspace TF_WORKSPACE --kube-context CONTEXT --namespace NS
#
# Optional: export PROD_ACCOUNT_ID=... to refuse outright if it's active.
set -uo pipefail

env_name="" account="" workspace="" kube_context="" namespace=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --env)          env_name="${2:-}"; shift 2 ;;
    --account)      account="${2:-}"; shift 2 ;;
    --workspace)    workspace="${2:-}"; shift 2 ;;
    --kube-context) kube_context="${2:-}"; shift 2 ;;
    --namespace)    namespace="${2:-}"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

for v in env_name account workspace kube_context namespace; do
  if [[ -z "${!v}" ]]; then
    echo "missing --${v//_/-}" >&2
    exit 2
  fi
done

failures=0
pass() { printf '  ok    %s\n' "$1"; }
fail() { printf '  FAIL  %s\n' "$1"; failures=$((failures + 1)); }

echo "Preflight for environment '$env_name'"

# 1. Names must not look like production.
for pair in "env:$env_name" "workspace:$workspace" "context:$kube_context" "namespace:$namespace"; do
  label="${pair%%:*}" value="${pair#*:}"
  if [[ "${value,,}" =~ (^|[-_./])(prod|production|live)([-_./]|$) ]]; then
    fail "$label '$value' looks like production"
  else
    pass "$label '$value' is not a production name"
  fi
done

# 2. AWS account.
if actual_account=$(aws sts get-caller-identity --query Account --output text 2>/dev/null); then
  if [[ "$actual_account" == "$account" ]]; then
    pass "AWS account is $actual_account"
  else
    fail "AWS account is $actual_account, expected $account"
  fi
  if [[ -n "${PROD_ACCOUNT_ID:-}" && "$actual_account" == "$PROD_ACCOUNT_ID" ]]; then
    fail "active AWS account is the production account"
  fi
else
  fail "could not call aws sts get-caller-identity (credentials?)"
fi

# 3. Terraform workspace.
if actual_ws=$(terraform workspace show 2>/dev/null); then
  if [[ "$actual_ws" == "$workspace" ]]; then
    pass "Terraform workspace is $actual_ws"
  else
    fail "Terraform workspace is '$actual_ws', expected '$workspace' (run: terraform workspace select $workspace)"
  fi
else
  fail "could not read Terraform workspace (run from the stack directory after terraform init)"
fi

# 4. Kubernetes context and namespace.
if actual_ctx=$(kubectl config current-context 2>/dev/null); then
  if [[ "$actual_ctx" == "$kube_context" ]]; then
    pass "kube context is $actual_ctx"
  else
    fail "kube context is '$actual_ctx', expected '$kube_context'"
  fi
  if kubectl --context "$kube_context" get namespace "$namespace" >/dev/null 2>&1; then
    pass "namespace $namespace exists in $kube_context"
  else
    fail "namespace $namespace not found in $kube_context"
  fi
else
  fail "could not read current kube context"
fi

echo
if [[ $failures -gt 0 ]]; then
  echo "Preflight FAILED ($failures problem(s)). Do not proceed."
  exit 1
fi
echo "Preflight passed. Nothing was changed."
