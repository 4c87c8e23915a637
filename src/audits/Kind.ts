/**
 * Audits as a kind of run (src/jobs/RunKind.ts): the `audit_runs` table, the `rubr_audit` task, its
 * phases, and the work a worker does (./Task.ts).
 */
import { declareRunKind } from "../jobs/RunKind.js"
import { auditClaimLoads, auditWork } from "./Task.js"

export const AuditKind = declareRunKind({
  kind: "audit",
  resourceType: "audit_run",
  table: "audit_runs",
  task: "rubr_audit",
  phases: [
    { name: "preparing_context", percent: 5 },
    { name: "scoring", percent: 30 },
    { name: "writing_results", percent: 85 }
  ],
  debitReason: "audit_run",
  work: auditWork,
  claimLoads: auditClaimLoads
})
