import { Effect } from "effect"
const b = (n: number) => Effect.withSpan(Effect.sync(() => n + 1), "B", { captureStackTrace: false })
const prog = Effect.gen(function*() { let s = 0; for (let i = 0; i < 20000; i++) s += yield* b(i); return s })
for (let k = 0; k < 15; k++) Effect.runSync(prog)
