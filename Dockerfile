# syntax=docker/dockerfile:1

# --- build: dev dependencies, TypeScript → dist/ ---
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
RUN npx tsc -p tsconfig.build.json

# --- runtime: production dependencies only, non-root ---
FROM node:24-slim
ENV NODE_ENV=production \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# HostOps itself keeps no state on disk (logs go to stdout). The volume holds what operators ask it to
# write: heap snapshots (kill -USR2) and diagnostic reports.
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
