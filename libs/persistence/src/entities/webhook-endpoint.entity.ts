import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user's completion endpoint (at most one per user), with the secret that signs its deliveries. */
@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id', unique: true })
  userId: string;

  @Column('text')
  url: string;

  @Column('text')
  secret: string;

  @Column('boolean', { name: 'require_inbound_signature', default: false })
  requireInboundSignature: boolean;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
