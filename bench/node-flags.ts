/**
 * The V8 flags the API and worker run with in production (package.json's start scripts,
 * scripts/start.mjs, the Dockerfile; see docs/architecture.md, "Runtime flags"). Every process a
 * benchmark starts gets them, the bare yardstick routes included, so the comparison stays fair.
 */
export const PRODUCTION_NODE_FLAGS = ['--max-semi-space-size=64'];
