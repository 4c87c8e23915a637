/**
 * The ids a use case takes, branded so they cannot be swapped: a bundle id is not a file id, though
 * both are UUID strings on the wire. Rows decode into them (src/db/Query.ts); a door brands what its
 * path or body names (`BundleId.make(path.bundleId)`) before it calls a use case. The HTTP schemas keep
 * plain strings, so the OpenAPI document does not change.
 */
import { Schema } from "effect"

export const BundleId = Schema.String.pipe(Schema.brand("BundleId"))
export type BundleId = typeof BundleId.Type

export const FileId = Schema.String.pipe(Schema.brand("FileId"))
export type FileId = typeof FileId.Type

/** a file version's id (a bundle's versions are numbered, not identified) */
export const VersionId = Schema.String.pipe(Schema.brand("VersionId"))
export type VersionId = typeof VersionId.Type

export const JobId = Schema.String.pipe(Schema.brand("JobId"))
export type JobId = typeof JobId.Type

/** the id of a run record of any kind (audit, conversion, eval, proof report) */
export const RunId = Schema.String.pipe(Schema.brand("RunId"))
export type RunId = typeof RunId.Type
