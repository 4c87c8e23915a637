import { Duration, Effect } from "effect"

/**
 * Waits for `effect` at most `duration`, also inside a finalizer. Finalizers run uninterruptibly, so a
 * plain timeout there cannot stop waiting: it would wait for the effect anyway (a drain stuck on a
 * database that is gone). Whatever the effect was doing goes on unobserved.
 */
export const atMost = (duration: Duration.DurationInput) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.interruptible(effect).pipe(Effect.timeoutOption(duration), Effect.asVoid)
