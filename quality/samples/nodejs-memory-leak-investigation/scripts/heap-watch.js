'use strict';
// Preload with: node --require ./scripts/heap-watch.js app.js
// Logs process.memoryUsage() as NDJSON. Read-only: it never writes snapshots or forces GC.
//
// Env:
//   HEAP_WATCH_INTERVAL_MS  sampling interval (default 10000)
//   HEAP_WATCH_FILE         append to this file instead of stderr

const fs = require('node:fs');

const intervalMs = Number(process.env.HEAP_WATCH_INTERVAL_MS) || 10_000;
const file = process.env.HEAP_WATCH_FILE;
const started = Date.now();
const mb = (n) => Math.round((n / 1024 / 1024) * 10) / 10;

function sample() {
  const m = process.memoryUsage();
  const line = JSON.stringify({
    t: new Date().toISOString(),
    uptimeS: Math.round((Date.now() - started) / 1000),
    pid: process.pid,
    rssMB: mb(m.rss),
    heapTotalMB: mb(m.heapTotal),
    heapUsedMB: mb(m.heapUsed),
    externalMB: mb(m.external),
    arrayBuffersMB: mb(m.arrayBuffers),
  }) + '\n';
  if (file) {
    fs.appendFile(file, line, () => {});
  } else {
    process.stderr.write(line);
  }
}

sample();
// unref() so the watcher never keeps an otherwise finished process alive.
setInterval(sample, intervalMs).unref();
