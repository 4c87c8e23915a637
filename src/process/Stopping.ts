/**
 * Whether the process has begun to stop (a SIGTERM or SIGINT arrived). Whatever restarts things on its
 * own (the embedded database's supervisor) asks first: Ctrl-C in a terminal reaches the embedded
 * PostgreSQL too (same process group), and its exit then is the stop, not a crash to repair.
 */
let stopping = false

export const markStopping = () => {
  stopping = true
}

export const isStopping = () => stopping
