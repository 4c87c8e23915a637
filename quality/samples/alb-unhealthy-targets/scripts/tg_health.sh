#!/usr/bin/env bash
# Read-only snapshot of a target group's health check settings and per-target health.
# Usage: tg_health.sh <target-group-name-or-arn>
# Needs: aws CLI v2 with elasticloadbalancing:Describe* permissions.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <target-group-name-or-arn>" >&2
  exit 2
fi

tg="$1"
if [[ "$tg" != arn:* ]]; then
  tg=$(aws elbv2 describe-target-groups --names "$tg" \
    --query 'TargetGroups[0].TargetGroupArn' --output text)
fi

echo "== Target group"
echo "$tg"

echo
echo "== Health check settings"
aws elbv2 describe-target-groups --target-group-arns "$tg" --output json \
  --query 'TargetGroups[0].{
    TargetType: TargetType,
    Protocol: HealthCheckProtocol,
    Port: HealthCheckPort,
    Path: HealthCheckPath,
    Matcher: Matcher,
    Interval: HealthCheckIntervalSeconds,
    Timeout: HealthCheckTimeoutSeconds,
    HealthyThreshold: HealthyThresholdCount,
    UnhealthyThreshold: UnhealthyThresholdCount,
    LBs: LoadBalancerArns}'

echo
echo "== Deregistration delay (seconds)"
aws elbv2 describe-target-group-attributes --target-group-arn "$tg" --output text \
  --query "Attributes[?Key=='deregistration_delay.timeout_seconds'].Value"

echo
echo "== Target health"
aws elbv2 describe-target-health --target-group-arn "$tg" --output table \
  --query 'TargetHealthDescriptions[].{
    Id: Target.Id,
    Port: Target.Port,
    AZ: Target.AvailabilityZone,
    State: TargetHealth.State,
    Reason: TargetHealth.Reason,
    Description: TargetHealth.Description}'
