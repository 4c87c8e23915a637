/**
 * rubr_flow conversions as a kind of run (src/jobs/RunKind.ts): the `rubr_flow_conversions` table,
 * the `rubr_flow_conversion` task, the contract's six phases in order, and the work (./Task.ts).
 */
import { declareRunKind } from "../jobs/RunKind.js"
import { conversionWork } from "./Task.js"

export const ConversionKind = declareRunKind({
  kind: "rubr_flow_conversion",
  resourceType: "rubr_flow_conversion",
  table: "rubr_flow_conversions",
  task: "rubr_flow_conversion",
  phases: [
    { name: "analysis", percent: 10 },
    { name: "mapping", percent: 25 },
    { name: "generation", percent: 40 },
    { name: "validation", percent: 65 },
    { name: "repair", percent: 75 },
    { name: "saving", percent: 90 }
  ],
  debitReason: "rubr_flow_conversion",
  work: conversionWork
})
