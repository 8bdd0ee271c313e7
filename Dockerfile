# syntax=docker/dockerfile:1

# The Node HostOps ships, exactly as .node-version holds it: CI (.ci/run) runs the suite on that version, and
# test/nodeVersions.test.ts fails when this default and the file differ.
ARG NODE_VERSION=24.21.0

# --- build: dev dependencies, TypeScript → one bundle per entry point in dist/ (scripts/build.mjs, esbuild) ---
FROM node:${NODE_VERSION}-slim AS build
# No compiler: better-sqlite3's native module comes prebuilt in its npm package (Node-API, README).
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# esbuild reads tsconfig.json (class field semantics follow its target).
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY commands ./commands
# What the runtime needs of node_modules: only better-sqlite3 (the bundle holds the rest), with the one
# prebuilt binary this platform loads (scripts/runtime-modules.mjs).
RUN node scripts/build.mjs && node scripts/runtime-modules.mjs node_modules runtime_modules

# --- runtime: production dependencies only, non-root ---
FROM node:${NODE_VERSION}-slim
# NODE_COMPILE_CACHE (Node 22+): V8's compiled code for the bundle, made below at build time, so a container
# starts without compiling it again. MALLOC_TRIM_THRESHOLD_ and the node options of CMD are `npm start`'s
# (package.json; test/processFlags.test.ts holds the three equal, docs/deploying.md says why each is there).
ENV NODE_ENV=production \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=8080 \
    NODE_COMPILE_CACHE=/app/.compile-cache \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
# package.json: "type": "module" for the bundle. Of the dependencies only better-sqlite3, with this platform's
# binary (the bundle holds the rest; no compiler in the image).
COPY package.json ./
COPY --from=build /app/runtime_modules ./node_modules
COPY --from=build /app/dist ./dist
# The volume holds the store (DATABASE_URL's default sqlite:data/hostops.db, relative to /app) and
# what operators ask HostOps to write: heap snapshots (kill -USR2) and diagnostic reports.
RUN mkdir -p /app/data /app/.compile-cache && chown node:node /app/data /app/.compile-cache
VOLUME ["/app/data"]
USER node
# Fill the compile cache: loading the bundle compiles it, and with no configuration HostOps then exits (78).
RUN node --max-semi-space-size=4 --v8-pool-size=1 --expose-gc dist/src/index.js >/dev/null 2>&1; test -n "$(ls -A /app/.compile-cache)"
# Only what may face the internet (`docker run -P` publishes every EXPOSEd port on every interface):
# 8081, POST /interactions in INTERACTIONS_MODE=http (INTERACTIONS_PORT), and 8082, the calendar URL's own
# listener (CALENDAR_PORT). 8080, /healthz and /metrics (HTTP_PORT), is private: the health check and
# Prometheus reach it inside the container and over the compose network, a host publishes it on loopback.
EXPOSE 8081 8082
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (no shell or npm in between); HostOps handles
# it, drains within SHUTDOWN_GRACE_MS (8 s) and exits before Docker's 10-second SIGKILL.
# The node options of `npm start` (docs/deploying.md): --max-semi-space-size=4 (MB) because V8's
# young generation otherwise grows to 16 MB per semi-space in a burst (Node 20; 64 MB on Node 24) and keeps
# it (a 200-command burst then peaks above 128 MiB); no --max-old-space-size: it holds the heap small after
# hours of use but makes V8 collect in full on the acknowledgements' path (docs/deploying.md, "Memory");
# --v8-pool-size=1 because each of V8's default 4 worker threads keeps its own malloc
# arena, and the one that tiers up undici's WebAssembly HTTP parser keeps ≈ 10 MB after it (one CPU's
# worth of background threads is what a small container has anyway); --expose-gc so HostOps can collect in
# full once it has gone quiet after work (src/IdleCollector.ts), giving back what a burst grew.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=4", "--v8-pool-size=1", "--expose-gc", "--diagnostic-dir=/app/data", "--heapsnapshot-signal=SIGUSR2", "dist/src/index.js"]
