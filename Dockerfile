# syntax=docker/dockerfile:1
# Multi-stage build: compile with dev dependencies and a toolchain (better-sqlite3 is a native addon),
# then ship only production dependencies and the compiled output on a slim image, as a non-root user.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci's postinstall applies these (patch-package): see patches/README.md.
COPY patches ./patches
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY views ./views
COPY locales ./locales
# The browser sources and the script that bundles them (npm run build runs build:client first).
COPY client ./client
COPY scripts ./scripts
RUN npm run build \
 && npm prune --omit=dev

FROM ${NODE_IMAGE} AS runtime
# APP_ENV=prod: an image started without configuration refuses to run (every missing variable is
# named) instead of starting the embedded IdP with the published demo password (issue 15 item 4).
ENV APP_ENV=prod \
    NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3333 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/locales ./locales
# The browser bundle, and the brand and translation files the build copied beside their brotli and
# gzip copies (scripts/build-client.js): what /static/ serves.
COPY --from=build --chown=node:node /app/client/dist ./client/dist
# DATA_DIR is the service user's alone (issue 50 item 8: sessions, accounts, keys).
RUN mkdir -p /app/data && chown node:node /app/data && chmod 700 /app/data
VOLUME ["/app/data"]
USER node
# The public port, and the management port (MANAGEMENT_PORT: /healthz, /readyz, /metrics), which only
# probes and Prometheus reach (docs/operating.md "The management port").
EXPOSE 3333 9000
# Liveness only: readiness (/readyz) is for the load balancer, which should stop routing, not restart.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MANAGEMENT_PORT||9000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm) so SIGTERM reaches the process and it shuts down gracefully.
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=128", "dist/src/main.js"]
