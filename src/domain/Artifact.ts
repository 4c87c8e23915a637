/** The kinds of instruction artifact rubr reviews, converts and evaluates (the spec's artifact types). */
import { Schema } from "effect"

export const ArtifactType = Schema.Literal("skill", "agent", "prompt", "command", "workflow", "rubr_flow")
export type ArtifactType = typeof ArtifactType.Type
