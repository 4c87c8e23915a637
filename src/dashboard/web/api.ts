/**
 * The dashboard's one door to the service: the typed client `rubr/client` (derived from the service's
 * own HttpApi definition), bearing the session's login token. A 401 signs the page out with the
 * service's message; every other failure is a `RubrError` the page shows (ui/ErrorNotice.tsx).
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks"
import { createClient, RubrError, type RubrPromiseClient } from "rubr/client"
import { apiBaseUrl } from "./config.js"
import { getSession, signOut } from "./session.js"

export { RubrError }
export type Client = RubrPromiseClient

let cached: { readonly token: string | undefined; readonly client: Client } | undefined

/** The client for the current token (a renewed token gets a new one). */
export const client = (): Client => {
  const token = getSession()?.token
  if (cached === undefined || cached.token !== token) {
    cached = {
      token,
      client: createClient({
        baseUrl: apiBaseUrl(),
        apiKey: token,
        // a short wait is retried quietly; a longer Retry-After is the person's to see (ErrorNotice)
        retries: 2,
        networkRetries: 1,
        maxRetryDelay: "2 seconds"
      })
    }
  }
  return cached!.client
}

/** Any failure as a RubrError (the client's own, or an unexpected throw). */
export const asRubrError = (error: unknown): RubrError =>
  error instanceof RubrError
    ? error
    : new RubrError({ code: "client_error", status: null, message: error instanceof Error ? error.message : String(error), requestId: null, details: [] })

/** One API call; a 401 on a signed-in page signs it out, with the reason. */
export const api = async <A>(call: (c: Client) => Promise<A>): Promise<A> => {
  try {
    return await call(client())
  } catch (error) {
    const e = asRubrError(error)
    if (e.status === 401 && getSession() !== null) signOut(`${e.message} Sign in again.`)
    throw e
  }
}

export type Data<F extends (...args: any) => Promise<{ data: unknown }>> = Awaited<ReturnType<F>>["data"]

export interface Query<A> {
  readonly data: A | undefined
  readonly error: RubrError | undefined
  readonly loading: boolean
  /** loads again; the current data stays on screen meanwhile */
  readonly reload: () => Promise<void>
  /** replaces the data without a request (after a write answered the new state) */
  readonly set: (data: A) => void
}

/** Requests started before their page rendered (at boot, for the address opened), by key; each is taken once. */
const early = new Map<string, Promise<unknown>>()

/** Starts a page's request now; the page's `useQuery` with the same key takes its answer. */
export const prefetch = (key: string, load: (c: Client) => Promise<unknown>) => {
  if (early.has(key)) return
  const answer = api(load).catch((e: unknown) => Promise.reject(asRubrError(e)))
  // handled here as well: a page that never renders (a 401 signed it out first) never takes its answer,
  // and its rejection must not surface as an uncaught page error; a page that does render still sees it
  answer.catch(() => undefined)
  early.set(key, answer)
}

const takeEarly = (key: string | undefined) => {
  if (key === undefined) return undefined
  const pending = early.get(key)
  early.delete(key)
  return pending
}

/**
 * Data for a page: loaded on mount and whenever `deps` change; the last answer wins. With a `key`, a
 * request `prefetch` started for it is used instead of a new one (once).
 */
export const useQuery = <A>(load: (c: Client) => Promise<A>, deps: ReadonlyArray<unknown>, key?: string): Query<A> => {
  const [state, setState] = useState<{ data: A | undefined; error: RubrError | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true
  })
  const generation = useRef(0)
  const run = useCallback(async () => {
    const mine = ++generation.current
    setState((s) => ({ ...s, loading: true }))
    try {
      const data = await ((takeEarly(key) as Promise<A> | undefined) ?? api(load))
      if (mine === generation.current) setState({ data, error: undefined, loading: false })
    } catch (error) {
      if (mine === generation.current) setState((s) => ({ data: s.data, error: asRubrError(error), loading: false }))
    }
  }, deps)
  useEffect(() => {
    void run()
  }, [run])
  return { ...state, reload: run, set: (data: A) => setState({ data, error: undefined, loading: false }) }
}

/** A write: `busy` while it runs, its error kept for the form (whose fields keep what was typed). */
export const useAction = <Args extends Array<unknown>, A>(action: (c: Client, ...args: Args) => Promise<A>) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<RubrError | undefined>(undefined)
  const run = async (...args: Args): Promise<A | undefined> => {
    setBusy(true)
    setError(undefined)
    try {
      return await api((c) => action(c, ...args))
    } catch (e) {
      setError(asRubrError(e))
      return undefined
    } finally {
      setBusy(false)
    }
  }
  return { run, busy, error, clearError: () => setError(undefined) }
}
