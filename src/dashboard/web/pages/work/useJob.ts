/**
 * A job followed live: its progress events polled (`GET /jobs/{id}/events?after=`, one request a poll,
 * 400 ms apart so a new event shows within about half a second), the job read again when it ends.
 * No reloads: the page re-renders as events arrive. Stops polling once the job has ended or the page
 * is gone; a failed poll (network, 429) waits longer and tries again, keeping what it has.
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { api, asRubrError, type Client, type Data, type RubrError } from "../../api.js"

export type Job = Data<Client["jobs"]["getJob"]>["job"]
export type JobEvent = Data<Client["jobs"]["listJobEvents"]>["events"][number]
export type JobState = Job["state"]

export const TERMINAL: ReadonlyArray<JobState> = ["completed", "failed", "cancelled"]
export const isActive = (state: JobState) => !TERMINAL.includes(state)

export const POLL_MS = 400

export interface LiveJob {
  readonly job: Job | undefined
  readonly events: ReadonlyArray<JobEvent>
  /** the latest state, phase, percent and message known (from the newest event, else the job) */
  readonly now: { readonly state: JobState; readonly phase: string; readonly percent: number; readonly message: string } | undefined
  readonly error: RubrError | undefined
  /** the job as the cancel route answered it */
  readonly setJob: (job: Job) => void
}

export const useJob = (jobId: string | null, onEnd?: (job: Job) => void): LiveJob => {
  const [job, setJob] = useState<Job | undefined>(undefined)
  const [events, setEvents] = useState<ReadonlyArray<JobEvent>>([])
  const [error, setError] = useState<RubrError | undefined>(undefined)
  const ended = useRef(onEnd)
  ended.current = onEnd
  useEffect(() => {
    if (jobId === null) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    let after = 0
    let seen: Array<JobEvent> = []
    const poll = async (wait: number) => {
      timer = setTimeout(async () => {
        if (!live) return
        try {
          const { data } = await api((c) => c.jobs.listJobEvents({ path: { jobId }, urlParams: { after, limit: 200 } }))
          if (!live) return
          setError(undefined)
          if (data.events.length > 0) {
            after = data.events[data.events.length - 1]!.sequence
            seen = [...seen, ...data.events]
            setEvents(seen)
          }
          const last = seen.at(-1)
          if (last && !isActive(last.state)) {
            const { data: final } = await api((c) => c.jobs.getJob({ path: { jobId } }))
            if (!live) return
            setJob(final.job)
            ended.current?.(final.job)
            return
          }
          void poll(data.events.length === 200 ? 0 : POLL_MS)
        } catch (e) {
          if (!live) return
          setError(asRubrError(e))
          void poll(Math.max(2000, (asRubrError(e).retryAfterSeconds ?? 0) * 1000))
        }
      }, wait)
    }
    // the job itself first (its state now, its error), then its events from the start
    api((c) => c.jobs.getJob({ path: { jobId } })).then(
      ({ data }) => {
        if (!live) return
        setJob(data.job)
        void poll(0)
      },
      (e: unknown) => live && setError(asRubrError(e))
    )
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [jobId])
  const last = events.at(-1)
  // the job read wins when it is newer (it ended, or it was cancelled here)
  const now = job && (!last || job.updatedAt.getTime() >= last.createdAt.getTime() || !isActive(job.state))
    ? { state: job.state, phase: job.phase, percent: job.percent, message: job.message }
    : last
    ? { state: last.state, phase: last.phase, percent: last.percent, message: last.message }
    : undefined
  return { job, events, now, error, setJob }
}

/** `preparing_context` → "Preparing context" */
export const phaseLabel = (phase: string) => {
  const words = phase.replace(/[_-]+/g, " ").trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
