# syntax=docker/dockerfile:1
# test/e2e/dockerfile.e2e-spec.ts replays these steps in a clean folder and starts the result
# (docs/deploy.md, "The image, tested without Docker").

# Builds dist/ (the API, the worker, their CLIs and the web app) with every dependency.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# The production dependencies alone, installed from the lock file as they are, not pruned from the
# build's tree. It depends on the lock file only, so BuildKit caches it across source changes.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Inside a container the service must listen on every interface; outside, the default is loopback.
ENV HOST=0.0.0.0
WORKDIR /app
# package.json makes Node read dist/ as ES modules; the apps read nothing else from the tree.
COPY --from=deps --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
EXPOSE 3000
CMD ["node", "--max-semi-space-size=32", "--max-old-space-size=384", "dist/apps/api/src/main.js"]
