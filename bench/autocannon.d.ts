/** The part of autocannon's API the bench uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      readonly url: string
      readonly connections?: number
      readonly duration?: number
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
    }
    interface Result {
      readonly requests: Histogram
      readonly latency: Histogram
      readonly non2xx: number
      readonly errors: number
      readonly timeouts: number
    }
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): unknown
  export = autocannon
}
