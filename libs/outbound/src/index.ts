export {
  createGuardedLookup,
  guardedConnector,
  guardedLookup,
  ipLiteral,
  isBlockedAddress,
  refusedRange,
  resolveAll,
  type Resolver,
} from './address-guard.js';
export { outboundAgent } from './outbound-agent.js';
