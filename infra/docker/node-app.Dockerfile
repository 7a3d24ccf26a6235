# syntax=docker/dockerfile:1.7
# One recipe for every Node deployable of the monorepo (gateway and each service).
# Build from the repository root:
#   docker build -f infra/docker/node-app.Dockerfile --build-arg APP_DIR=services/identity -t portico/identity:0.1.0 .
# APP_DIR is the workspace folder; it must build to APP_DIR/dist with `npm run build -w APP_DIR`.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---- build: install everything, compile the app and the workspace packages it uses
FROM ${NODE_IMAGE} AS build
ARG APP_DIR
WORKDIR /src
ENV NX_NO_CLOUD=true CI=true
COPY . .
# Scripts are skipped: the production dependencies ship prebuilt binaries as packages.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm run build -w proto \
 && npm run build -w services/platform \
 && npm run build -w "${APP_DIR}"

# ---- prune: production dependencies of this one workspace, then the runtime tree
FROM ${NODE_IMAGE} AS prune
ARG APP_DIR
WORKDIR /src
COPY --from=build /src /src
RUN rm -rf node_modules */node_modules */*/node_modules \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w "${APP_DIR}" \
 && mkdir -p /out \
 && cp -a --parents package.json node_modules /out/ \
 && for d in proto services/platform "${APP_DIR}"; do \
      cp -a --parents "$d/package.json" "$d/dist" /out/; \
      if [ -d "$d/node_modules" ]; then cp -a --parents "$d/node_modules" /out/; fi; \
      if [ -d "$d/migrations" ]; then cp -a --parents "$d/migrations" /out/; fi; \
    done \
 && npm cache clean --force

# ---- runtime: no compiler, no dev dependencies, no npm cache, non-root
FROM ${NODE_IMAGE} AS runtime
ARG APP_DIR
ENV NODE_ENV=production \
    APP_DIR=${APP_DIR}
COPY --from=prune --chown=0:0 /out /app
WORKDIR /app/${APP_DIR}
USER 1000:1000
# PORT for the gateway, HEALTH_PORT for the NATS services; both serve /health/live.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const p=process.env.HEALTH_PORT||process.env.PORT||3000;fetch('http://127.0.0.1:'+p+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--import", "@portico/platform/telemetry", "dist/main.js"]
