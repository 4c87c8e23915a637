/** The part of autocannon's API the bench uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      readonly url: string
      readonly connections?: number
      readonly duration?: number
      /** Stop after this many requests in all (instead of after `duration`). */
      readonly amount?: number
      /** Seconds before a request counts as a timeout (default 10). */
      readonly timeout?: number
      readonly method?: string
      readonly headers?: Record<string, string>
      readonly body?: string
      readonly requests?: ReadonlyArray<Record<string, unknown>>
    }
    interface Histogram {
      readonly average: number
      readonly total: number
      readonly p50: number
      readonly p99: number
      readonly p99_9: number
      readonly max: number
    }
    interface Result {
      readonly requests: Histogram
      readonly latency: Histogram
      readonly non2xx: number
      readonly errors: number
      readonly timeouts: number
      readonly resets: number
      /** Seconds the run took. */
      readonly duration: number
      readonly "2xx": number
    }
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): unknown
  export = autocannon
}
