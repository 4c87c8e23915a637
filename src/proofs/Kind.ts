/**
 * Proof reports as a kind of run (src/jobs/RunKind.ts): the `proof_reports` table, the
 * `rubr_proof_report` task, its phases, and the work (./Task.ts). They cost 0 credits.
 */
import { declareRunKind } from "../jobs/RunKind.js"
import { proofReportWork } from "./Task.js"

export const ProofReportKind = declareRunKind({
  kind: "proof_report",
  resourceType: "proof_report",
  table: "proof_reports",
  task: "rubr_proof_report",
  phases: [
    { name: "waiting_for_eval", percent: 5 },
    { name: "assembling", percent: 30 },
    { name: "signing", percent: 60 },
    { name: "exporting", percent: 80 },
    { name: "saving", percent: 95 }
  ],
  debitReason: "proof_report",
  work: proofReportWork
})
