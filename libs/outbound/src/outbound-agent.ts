import { Agent } from 'undici';
import { guardedConnector } from './address-guard.js';

/**
 * The HTTP agent for requests to addresses that users or clients choose (completion endpoints,
 * OAuth client metadata documents): with `allowPrivate` false (production), connections only to
 * public addresses, checked on the address actually dialled (IP literals by the connector, host
 * names by its lookup), so a DNS answer that changes between a check and the dial gets nowhere.
 */
export function outboundAgent(options: { allowPrivate: boolean; connections: number }): Agent {
  return options.allowPrivate
    ? new Agent({ connections: options.connections })
    : new Agent({ connections: options.connections, connect: guardedConnector() });
}
