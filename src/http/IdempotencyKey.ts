/** The `Idempotency-Key` header of the start routes (src/http/Idempotency.ts keeps the replay logic). */
import { Schema } from "effect"

/** The header every start route accepts. */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(Schema.String).annotations({
    description: "replays the first response for the same key and body; a different body is 409"
  })
})
