/**
 * Issue 12 benchmark: the MCP door against the REST door on the same file, in the same run, both on
 * the bench service with the same API key: `tools/call read_file` (POST /api/v1/mcp, protocol
 * 2025-06-18: the JSON as text and as structuredContent) against `GET /artifact-bundles/{id}/files/{fileId}`.
 * The goal is MCP at 80% of REST's requests/s or more. The two alternate for BENCH_ROUNDS rounds and
 * each keeps its best, as in the files section.
 */
import { content4k, seedBundle } from "./files.js"
import type { BenchContext, Measurement } from "./harness.js"

const GOAL = 0.8

export const mcpSection = async (ctx: BenchContext): Promise<string> => {
  const seeded = await seedBundle(ctx.pool, ctx.userId, "bench-mcp", [{ path: "SKILL.md", content: content4k(0), versions: 1 }])
  const bundleId = seeded.bundleId
  const fileId = seeded.fileIds[0]!
  const restUrl = `${ctx.urls.service}/artifact-bundles/${bundleId}/files/${fileId}`
  const mcpUrl = `${ctx.urls.service}/mcp`
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_file", arguments: { artifactBundleId: bundleId, fileId } } })

  // one call first: a tool failure is HTTP 200 too, so autocannon alone would not see it
  const probe = await fetch(mcpUrl, {
    method: "POST",
    headers: { authorization: `Bearer ${ctx.apiKey}`, "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
    body: call
  })
  const answer = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: { content?: string } } }
  if (answer.result?.isError !== false || answer.result.structuredContent?.content !== content4k(0)) {
    throw new Error(`MCP read_file did not answer the file: ${JSON.stringify(answer).slice(0, 500)}`)
  }

  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  let rest: Measurement | undefined
  let mcp: Measurement | undefined
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`bench: REST GET file [round ${round + 1}/${rounds}]\n`)
    const r = await ctx.run({ target: "service", url: restUrl })
    if (!rest || r.requestsPerSecond > rest.requestsPerSecond) rest = r
    process.stderr.write(`bench: MCP tools/call read_file [round ${round + 1}/${rounds}]\n`)
    const m = await ctx.run({ target: "service", url: mcpUrl, method: "POST", body: () => call, headers: { "mcp-protocol-version": "2025-06-18" } })
    if (!mcp || m.requestsPerSecond > mcp.requestsPerSecond) mcp = m
    process.stderr.write(`       REST ${r.requestsPerSecond.toFixed(0)} req/s, MCP ${m.requestsPerSecond.toFixed(0)} req/s\n`)
  }
  const ratio = mcp!.requestsPerSecond / rest!.requestsPerSecond
  const row = (name: string, m: Measurement) =>
    `| ${name}${m.non2xx + m.errors > 0 ? ` (non-2xx/errors: ${m.non2xx + m.errors})` : ""} | ${m.requestsPerSecond.toFixed(1)} | ${m.p50} / ${m.p99} | ${
      m.cpuMsPerRequest.toFixed(2)
    } | ${m.postgresCpuMsPerRequest.toFixed(2)} |`
  return [
    "| Door (same 4 KiB file, same API key) | req/s | p50 / p99 (ms) | Server CPU ms/req | PostgreSQL CPU ms/req |",
    "|---|---:|---:|---:|---:|",
    row("REST GET /artifact-bundles/{id}/files/{fileId}", rest!),
    row("MCP tools/call read_file (2025-06-18)", mcp!),
    "",
    `MCP at ${(100 * ratio).toFixed(0)}% of REST's requests/s (goal: at least ${GOAL * 100}%): ${ratio >= GOAL ? "met" : "NOT met"}.`
  ].join("\n")
}
