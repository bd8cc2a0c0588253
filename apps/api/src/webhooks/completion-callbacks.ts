import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * The completions the service POSTs to the user's endpoint, as OpenAPI callbacks on the routes
 * that lead to them. Both are signed the same way (docs/webhooks.md). `@ApiCallbacks` documents a
 * callback's body by its class, hence classes (registered with `@ApiExtraModels` where used).
 */
@ApiSchema({
  name: 'EvaluationCompletion',
  description:
    'Sent to your endpoint after an inbound event is judged. Headers: `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body with your secret>`, `X-Service-Event-Id`, `X-Service-Delivery-Id`. Reject a `sentAt` older than 5 minutes. See docs/webhooks.md.',
})
export class EvaluationCompletionDto {
  @ApiProperty({ enum: ['evaluation.completed'] })
  type!: 'evaluation.completed';

  @ApiProperty({ format: 'uuid' })
  eventId!: string;

  @ApiProperty({ format: 'uuid' })
  deliveryId!: string;

  @ApiProperty({ format: 'date-time' })
  sentAt!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '{id, packId, packVersionId, source, status, result, createdAt}',
  })
  evaluation!: Record<string, unknown>;
}

@ApiSchema({
  name: 'SimulationCompletion',
  description:
    'Sent to your saved endpoint once when a simulation finishes: `simulation.completed`, or `simulation.failed` with the reason (a cancelled simulation sends nothing). Headers: `X-Service-Signature` (as for evaluations), `X-Service-Simulation-Id`, `X-Service-Delivery-Id`. Retried like evaluation completions; listed in GET /api/webhook-deliveries.',
})
export class SimulationCompletionDto {
  @ApiProperty({ enum: ['simulation.completed', 'simulation.failed'] })
  type!: 'simulation.completed' | 'simulation.failed';

  @ApiProperty({ format: 'uuid' })
  deliveryId!: string;

  @ApiProperty({ format: 'date-time' })
  sentAt!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      '{id, datasetId, packId, packVersionId, status, reason, total, completed, byStatus: {accept, review, reject}, createdAt, startedAt, finishedAt}',
  })
  simulation!: Record<string, unknown>;
}

@ApiSchema({
  name: 'EndpointTestEvent',
  description:
    'Sent by POST /api/webhook-endpoints/{id}/test only, once, signed like a completion (`X-Service-Signature`, `X-Service-Delivery-Id`). Never retried or recorded; answer it like any other delivery.',
})
export class EndpointTestEventDto {
  @ApiProperty({ enum: ['endpoint.test'] })
  type!: 'endpoint.test';

  @ApiProperty({ format: 'uuid', description: 'Fresh for every test; no delivery is stored under it.' })
  deliveryId!: string;

  @ApiProperty({ format: 'date-time' })
  sentAt!: string;

  @ApiProperty({ format: 'uuid' })
  endpointId!: string;
}

const EXPECTED_RESPONSE = {
  status: 200,
  description: 'Any 2xx is success; anything else, a timeout (10 s) or a connection error is retried.',
};

export const EVALUATION_COMPLETION = {
  name: 'evaluation.completed',
  callbackUrl: '{$request.body#/url}',
  method: 'post',
  requestBody: { type: EvaluationCompletionDto },
  expectedResponse: EXPECTED_RESPONSE,
};

export const SIMULATION_COMPLETION = {
  name: 'simulation.completed',
  callbackUrl: '{$request.body#/url}',
  method: 'post',
  requestBody: { type: SimulationCompletionDto },
  expectedResponse: EXPECTED_RESPONSE,
};

export const ENDPOINT_TEST = {
  name: 'endpoint.test',
  callbackUrl: '{$request.body#/url}',
  method: 'post',
  requestBody: { type: EndpointTestEventDto },
  expectedResponse: {
    status: 200,
    description: 'Reported by the test route as it came: status and time. Nothing is retried.',
  },
};
