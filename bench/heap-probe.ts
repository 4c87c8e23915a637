/**
 * Bench-only preload for the bench's service process (`node --expose-gc --import tsx --import
 * bench/heap-probe.ts src/main.ts`, see harness.ts), so the service's memory can be read from outside
 * without a route of its own. Nothing in src/ loads it, and without its variables it does nothing.
 *
 * - BENCH_HEAP_REPORT_FILE: on SIGUSR2 it runs full garbage collections and writes
 *   `process.memoryUsage()` as JSON to that file (written to a temporary name, then renamed, so the
 *   reader never sees half a file).
 * - BENCH_HEAP_SAMPLE_FILE: every BENCH_HEAP_SAMPLE_MS (default 200) it appends one JSON line with the
 *   time, RSS, heap used and total, external memory and the size of each V8 space (new, old, large
 *   objects, code), so a section can tell what an RSS peak was made of.
 */
import * as Fs from "node:fs"
import * as V8 from "node:v8"

export interface HeapReport {
  /** process.memoryUsage() after the collections, in bytes. */
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
  readonly rss: number
  /** heapUsed before the collections, in bytes. */
  readonly heapUsedBeforeGc: number
  /** false when the process runs without --expose-gc (the numbers are then not after a GC). */
  readonly gc: boolean
}

export interface HeapSample {
  /** Date.now() */
  readonly at: number
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  /** Committed size of each V8 space by name (new_space, old_space, large_object_space, ...), bytes. */
  readonly spaces: Record<string, number>
}

const reportFile = process.env.BENCH_HEAP_REPORT_FILE

if (reportFile) {
  const gc = (globalThis as { gc?: () => void }).gc
  const collect = async () => {
    // a second and third pass after a turn of the event loop catch what weak callbacks and
    // finalizers released in the first
    gc?.()
    await new Promise((resolve) => setImmediate(resolve))
    gc?.()
    await new Promise((resolve) => setTimeout(resolve, 50))
    gc?.()
  }
  process.on("SIGUSR2", () => {
    const heapUsedBeforeGc = process.memoryUsage().heapUsed
    void collect().then(() => {
      const usage = process.memoryUsage()
      const report: HeapReport = {
        heapUsed: usage.heapUsed,
        heapTotal: usage.heapTotal,
        external: usage.external,
        arrayBuffers: usage.arrayBuffers,
        rss: usage.rss,
        heapUsedBeforeGc,
        gc: gc !== undefined
      }
      Fs.writeFileSync(`${reportFile}.tmp`, JSON.stringify(report))
      Fs.renameSync(`${reportFile}.tmp`, reportFile)
    })
  })
}

const sampleFile = process.env.BENCH_HEAP_SAMPLE_FILE

if (sampleFile) {
  setInterval(() => {
    const usage = process.memoryUsage()
    const spaces: Record<string, number> = {}
    for (const space of V8.getHeapSpaceStatistics()) {
      if (space.space_size > 0) spaces[space.space_name] = space.space_size
    }
    const sample: HeapSample = {
      at: Date.now(),
      rss: usage.rss,
      heapUsed: usage.heapUsed,
      heapTotal: usage.heapTotal,
      external: usage.external,
      spaces
    }
    Fs.appendFileSync(sampleFile, `${JSON.stringify(sample)}\n`)
  }, Number(process.env.BENCH_HEAP_SAMPLE_MS ?? 200)).unref()
}
