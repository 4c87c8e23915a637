import { Effect } from "effect"
const a = Effect.fn("A")(function*(n: number) { return n + 1 })
const b = (n: number) => Effect.withSpan(Effect.sync(() => n + 1), "B", { captureStackTrace: false })
const c = Effect.fnUntraced(function*(n: number) { return n + 1 })
const d = (n: number) => Effect.withSpan(Effect.sync(() => n + 1), "D")
const run = (label: string, f: (n: number) => Effect.Effect<number>) => {
  const prog = Effect.gen(function*() { let s = 0; for (let i = 0; i < 20000; i++) s += yield* f(i); return s })
  Effect.runSync(prog)
  const t = performance.now()
  for (let k = 0; k < 5; k++) Effect.runSync(prog)
  console.log(label, ((performance.now() - t) / 100000 * 1000).toFixed(2), "µs/call")
}
for (let r = 0; r < 2; r++) { run("fn", a); run("withSpan nostack", b); run("fnUntraced", c); run("withSpan stack", d) }
