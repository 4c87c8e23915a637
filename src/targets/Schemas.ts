/** The wire shape of a resolved target (audits and conversions; conversions add `outputPath`). */
import { Schema } from "effect"

const PositiveInt = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))

/** The target selection body fields shared by audits and conversions. */
export const TargetSelection = {
  targetFileId: Schema.optional(Schema.UUID),
  targetVersionNumber: Schema.optional(PositiveInt),
  artifactBundleVersionNumber: Schema.optional(PositiveInt)
}

export const TargetFields = {
  artifactBundleId: Schema.UUID,
  targetMode: Schema.Literal("file", "bundle"),
  targetFileId: Schema.NullOr(Schema.UUID),
  targetFilePath: Schema.NullOr(Schema.String),
  targetFileVersionId: Schema.NullOr(Schema.UUID),
  targetFileVersionNumber: Schema.NullOr(Schema.Int),
  artifactBundleVersionNumber: Schema.Int,
  inputVersionIds: Schema.Array(Schema.UUID),
  inputHash: Schema.String
}
