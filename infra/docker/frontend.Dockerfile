# syntax=docker/dockerfile:1.7
# One image per front end (the shell, and each remote on its own), so a remote ships without the shell.
#   docker build -f infra/docker/frontend.Dockerfile --build-arg APP_DIR=frontends/client -t portico/frontend-client:0.1.0 .
# APP_DIR must build its static files to APP_DIR/dist with `npm run build -w APP_DIR`.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.28.0-alpine

FROM ${NODE_IMAGE} AS build
ARG APP_DIR
WORKDIR /src
ENV CI=true
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm run build -w "${APP_DIR}" \
 && cp -a "${APP_DIR}/dist" /site \
 && mkdir /maps \
 && cd /site && find . -name '*.map' -exec cp --parents {} /maps/ \; -delete \
 && test -z "$(find . -name '*.map' -print -quit)"

# The release's source maps, never served: `docker build --target sourcemaps --output type=local,dest=...`
# right after the image's build (the same context, so the build stage comes from its cache and the maps
# are the served bundles') keeps them where reported stacks are read.
FROM scratch AS sourcemaps
COPY --from=build /maps /

FROM ${NGINX_IMAGE} AS runtime
COPY --chown=0:0 infra/docker/frontend-nginx.conf /etc/nginx/conf.d/default.conf
COPY --chown=0:0 infra/docker/frontend-security-headers.conf /etc/nginx/snippets/portico-security-headers.conf
COPY --from=build --chown=0:0 /site /usr/share/nginx/html
# The unprivileged nginx image runs as uid 101; said again here so the rule is visible.
USER 101:101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
