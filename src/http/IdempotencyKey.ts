/** The `Idempotency-Key` header of the start routes (src/http/Idempotency.ts keeps the replay logic). */
import { Schema } from "effect"

/** What a key may be: 1-255 visible ASCII characters (what fits a header unquoted). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/
export const IDEMPOTENCY_KEY_RULE = "must be 1-255 visible ASCII characters"

/** The header every start route accepts. */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(Schema.String).annotations({
    description: "replays the first response for the same key and body; a different body is 409"
  })
})
