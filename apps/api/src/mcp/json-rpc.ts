import { isSpecType } from '@modelcontextprotocol/server';

/** JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object). */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** Implementation-defined server errors (-32000 to -32099), as the SDK's transport answers them. */
  serverError: -32000,
} as const;

export interface JsonRpcErrorBody {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data?: unknown };
}

export function jsonRpcError(code: number, message: string, data?: unknown): JsonRpcErrorBody {
  return { jsonrpc: '2.0', id: null, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/**
 * The first MCP revision without JSON-RPC batches. 2024-11-05 and 2025-03-26 had them, and a client
 * of those revisions sends no `MCP-Protocol-Version` header (the header came with 2025-06-18).
 */
const FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';
/** The SDK transport's own cap (MAX_BATCH_SIZE), checked here before the messages are parsed. */
const MAX_BATCH_MESSAGES = 100;

/**
 * Checks a parsed /mcp body before the SDK sees it, answering what JSON-RPC 2.0 requires where the
 * SDK's transport differs: a batch where the client's revision has none, an empty batch, and a
 * message that is JSON but not JSON-RPC are invalid requests (-32600; the SDK calls the last a parse
 * error). The messages of a batch that passes are each counted as calls (McpServerFactory).
 */
export function refuseMalformedBody(
  body: unknown,
  protocolVersion: string | undefined,
): JsonRpcErrorBody | null {
  if (Array.isArray(body)) {
    if (protocolVersion !== undefined && protocolVersion >= FIRST_REVISION_WITHOUT_BATCHES) {
      return jsonRpcError(
        JSON_RPC.invalidRequest,
        `Invalid Request: protocol revision ${protocolVersion.slice(0, 32)} has no JSON-RPC batches; send one message per request`,
      );
    }
    if (body.length === 0) return jsonRpcError(JSON_RPC.invalidRequest, 'Invalid Request: empty batch');
    // Before any message is parsed, so a body of thousands of small messages costs nothing.
    if (body.length > MAX_BATCH_MESSAGES) {
      return jsonRpcError(
        JSON_RPC.invalidRequest,
        `Invalid Request: Batch must not exceed ${MAX_BATCH_MESSAGES} messages`,
      );
    }
  }
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const invalid = messages.findIndex((message) => !isSpecType.JSONRPCMessage(message));
  if (invalid === -1) return null;
  const where = Array.isArray(body) ? `message ${invalid} of the batch is` : 'the body is';
  return jsonRpcError(JSON_RPC.invalidRequest, `Invalid Request: ${where} not a JSON-RPC 2.0 message`);
}
