# The bot's image (docs/hosting.md, "In a container"). Two stages: `build` has the dev dependencies (TypeScript);
# the runtime stage has only what `npm start` runs, and jemalloc. Nothing is compiled: better-sqlite3 and resvg are
# prebuilt Node-API binaries (package.json's allowScripts denies better-sqlite3's build from source).
# CI cannot pull images, so it runs the same steps outside a container: scripts/check-production-install.ts.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The lock file first: the dependency layers are rebuilt only when the dependencies change, not at every edit.
# With it .npmrc (engine-strict) and the Node check that npm's preinstall runs.
COPY package.json package-lock.json .npmrc ./
COPY scripts/check-node.cjs ./scripts/check-node.cjs
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build
# Production dependencies only; the runtime stage copies the folder.
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# jemalloc instead of glibc's malloc: it gives freed pages back to the system, glibc's arenas keep them (about 12 MB
# of the bot after 10,000 events; docs/hosting.md, "Memory"). The settings are those `npm run bench -- feed-memory`
# measures (bench/lib/jemalloc.ts); the link gives the library one path on every architecture.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libjemalloc2 \
  && rm -rf /var/lib/apt/lists/* \
  && ln -s "$(dpkg -L libjemalloc2 | grep '/libjemalloc.so.2$')" /usr/local/lib/libjemalloc.so.2
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
  MALLOC_CONF=narenas:1,background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,tcache_max:4096
WORKDIR /app
# Owned by root, run as `node` (the official image's unprivileged user): the process cannot change its own code.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/launch.js /app/scripts/check-node.cjs ./scripts/
# The SQLite store (STORE_URL's default, sqlite://data/bot.sqlite) lives in data/, the only folder it writes.
RUN mkdir data && chown node:node data
USER node
VOLUME ["/app/data"]
ENV PORT=3000
EXPOSE 3000
# Liveness and the store: /healthz answers 503 while the store fails. The slim image has no curl; Node has fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs, in exec form: node is PID 1 and gets SIGTERM itself (npm would not wait for the bot's
# stop), so the bot stops accepting, confirms the message in flight and exits 0. launch.js checks the Node first
# (scripts/check-node.cjs): an image built on a Node package.json does not name says so in one line and exits 1.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=2", "--liftoff-only", "--no-concurrent-recompilation", "scripts/launch.js", "bot"]
