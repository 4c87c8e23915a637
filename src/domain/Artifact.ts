/** The kinds of instruction artifact rubr reviews, converts and evaluates (the spec's artifact types). */
import { Schema } from "effect"

export const ArtifactType = Schema.Literal("skill", "agent", "prompt", "command", "workflow", "rubr_flow")
export type ArtifactType = typeof ArtifactType.Type

/** Types whose bundle is a self-contained package: every bundle-relative path must exist in it. */
export const PACKAGE_TYPES: ReadonlySet<ArtifactType> = new Set(["skill", "workflow", "rubr_flow"])
