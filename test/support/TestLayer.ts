/**
 * `makeTestLayer(Tag)({...})`: a layer of a service built from the methods a test implements; any other
 * method dies loudly, naming the service and the method, so a failure path (an AI provider that errors,
 * an object store that is down, a mailer that refuses) is stated in a few lines and a test never passes
 * by calling a method nobody meant it to reach. (The effect-http-play idiom, docs: ../shared/STYLE.md.)
 */
import { Context, Effect, Layer } from "effect"

export const makeTestLayer = <I, S extends object>(tag: Context.Tag<I, S>) => (implemented: Partial<S>): Layer.Layer<I> =>
  Layer.succeed(
    tag,
    new Proxy(implemented as S, {
      get: (target, property) => {
        if (property in target) return (target as Record<PropertyKey, unknown>)[property]
        // Effect checks a few symbols (and `then`) on any value it meets; they are not service methods
        if (typeof property === "symbol" || property === "then") return undefined
        return () => Effect.die(new Error(`${tag.key}.${property} is not implemented in this test layer`))
      }
    })
  )
