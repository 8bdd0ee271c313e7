# syntax=docker/dockerfile:1

# --- build: dev dependencies, TypeScript → dist/ ---
FROM node:24-slim AS build
# better-sqlite3 is a native module: built here from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev --no-audit --no-fund

# --- runtime: production dependencies only, non-root ---
FROM node:24-slim
ENV NODE_ENV=production \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies as built above (the native SQLite module included), no compiler in the image.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The volume holds the store (DATABASE_URL's default sqlite:data/hostops.db, relative to /app) and
# what operators ask HostOps to write: heap snapshots (kill -USR2) and diagnostic reports.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (no shell or npm in between); HostOps handles
# it, drains within SHUTDOWN_GRACE_MS (8 s) and exits before Docker's 10-second SIGKILL.
STOPSIGNAL SIGTERM
CMD ["node", "--diagnostic-dir=/app/data", "--heapsnapshot-signal=SIGUSR2", "dist/src/index.js"]
