import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Permission } from '@app/domain';

/** An API key. The secret itself is never stored: only its SHA-256 and a display prefix. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  name: string;

  @Column('text')
  prefix: string;

  @Column('text', { name: 'secret_hash' })
  secretHash: string;

  @Column('text', { array: true })
  permissions: Permission[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
