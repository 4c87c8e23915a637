/**
 * `rubr/client`: the typed SDK. Effect programs use `make`/`layerFetch` and the `Client` tag;
 * `docs/sdk.md` shows both styles.
 */
export { Client, type ClientOptions, layerFetch, make, makeWithFetch, retryAfterMs, type RetryInfo, type RubrClient } from "./Client.js"
export { type Job, type JobEvent, jobFailure, TERMINAL_STATES, waitForCompletion, waitForJob, type WaitOptions } from "./Jobs.js"
export { isTransient, RubrError } from "./RubrError.js"
export { createClient, type RubrPromiseClient } from "./Promise.js"
