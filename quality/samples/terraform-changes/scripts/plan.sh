#!/usr/bin/env bash
# Writes tfplan (binary) and tfplan.txt (readable) for the given workspace, and prints the
# resources that will be replaced or destroyed.
# Usage: plan.sh <workspace>
set -euo pipefail

workspace="${1:?usage: plan.sh <workspace>}"

terraform workspace select "$workspace"
terraform plan -input=false -lock-timeout=60s -out=tfplan
terraform show -no-color tfplan > tfplan.txt

echo
echo "Replaced or destroyed:"
terraform show -json tfplan \
  | jq -r '.resource_changes[]
      | select(.change.actions | index("delete"))
      | "\(.change.actions | join("/"))  \(.address)"' \
  || true
