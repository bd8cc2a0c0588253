# syntax=docker/dockerfile:1

# Build with dev dependencies, then drop them so the runtime stage copies production modules only.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Inside a container the service must listen on every interface; outside, the default is loopback.
ENV HOST=0.0.0.0
WORKDIR /app
# The whole pruned tree, not only dist/: files the apps read at run time beside their sources come along.
COPY --from=build --chown=node:node /app ./
USER node
EXPOSE 3000
CMD ["node", "--max-semi-space-size=64", "--max-old-space-size=384", "dist/apps/api/src/main.js"]
