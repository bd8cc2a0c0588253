/**
 * The completions the service POSTs to the user's endpoint, as OpenAPI callbacks on the routes
 * that lead to them. Both are signed the same way (docs/webhooks.md).
 */
export const EVALUATION_COMPLETION = {
  name: 'evaluation.completed',
  callbackUrl: '{$request.body#/url}',
  method: 'post',
  requestBody: {
    description:
      'Sent to your endpoint after an inbound event is judged. Headers: `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body with your secret>`, `X-Service-Event-Id`, `X-Service-Delivery-Id`. Reject a `sentAt` older than 5 minutes. See docs/webhooks.md.',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['evaluation.completed'] },
            eventId: { type: 'string', format: 'uuid' },
            deliveryId: { type: 'string', format: 'uuid' },
            sentAt: { type: 'string', format: 'date-time' },
            evaluation: {
              type: 'object',
              description: '{id, packId, packVersionId, source, status, result, createdAt}',
            },
          },
        },
      },
    },
  },
  expectedResponse: {
    status: 200,
    description: 'Any 2xx is success; anything else, a timeout (10 s) or a connection error is retried.',
  },
} as const;

export const SIMULATION_COMPLETION = {
  name: 'simulation.completed',
  callbackUrl: '{$request.body#/url}',
  method: 'post',
  requestBody: {
    description:
      'Sent to your saved endpoint once when a simulation finishes: `simulation.completed`, or `simulation.failed` with the reason (a cancelled simulation sends nothing). Headers: `X-Service-Signature` (as for evaluations), `X-Service-Simulation-Id`, `X-Service-Delivery-Id`. Retried like evaluation completions; listed in GET /api/webhook-deliveries.',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['simulation.completed', 'simulation.failed'] },
            deliveryId: { type: 'string', format: 'uuid' },
            sentAt: { type: 'string', format: 'date-time' },
            simulation: {
              type: 'object',
              description:
                '{id, datasetId, packId, packVersionId, status, reason, total, completed, byStatus: {accept, review, reject}, createdAt, startedAt, finishedAt}',
            },
          },
        },
      },
    },
  },
  expectedResponse: EVALUATION_COMPLETION.expectedResponse,
} as const;
