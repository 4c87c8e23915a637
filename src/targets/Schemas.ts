/** The wire shape of a resolved target (audits and conversions; conversions add `outputPath`). */
import { Schema } from "effect"

const PositiveInt = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))

/** The target selection body fields shared by audits and conversions. */
export const TargetSelection = {
  targetFileId: Schema.optional(Schema.UUID),
  targetVersionNumber: Schema.optional(PositiveInt),
  artifactBundleVersionNumber: Schema.optional(PositiveInt),
  targetMode: Schema.optional(Schema.Literal("file", "bundle")).annotations({
    description: "bundle: every file under review, even when the bundle has a main artifact (not with targetFileId); " +
      "file: the main artifact (or targetFileId) with the others as context, 409 when there is none. Default: file when there is a main artifact, else bundle"
  })
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
