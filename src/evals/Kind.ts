/**
 * Evals as a kind of run (src/jobs/RunKind.ts): the `eval_runs` table, the `rubr_eval` task, its
 * phases, and the work (./Task.ts).
 */
import { declareRunKind } from "../jobs/RunKind.js"
import { evalWork } from "./Task.js"

export const EvalKind = declareRunKind({
  kind: "eval",
  resourceType: "eval_run",
  table: "eval_runs",
  task: "rubr_eval",
  phases: [
    { name: "preparing", percent: 5 },
    { name: "evaluating", percent: 15 },
    { name: "comparing", percent: 90 },
    { name: "saving", percent: 95 }
  ],
  debitReason: "eval_run",
  work: evalWork
})
