import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, LessThan, MoreThan, type Repository } from 'typeorm';
import { SessionEntity } from '../entities/session.entity.js';

@Injectable()
export class SessionRepository {
  private readonly sessions: Repository<SessionEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.sessions = dataSource.getRepository(SessionEntity);
  }

  create(userId: string, tokenHash: string, expiresAt: Date): Promise<SessionEntity> {
    return this.sessions.save(this.sessions.create({ id: randomUUID(), userId, tokenHash, expiresAt }));
  }

  /** The live (unexpired) session for this token hash, if any. */
  findLive(tokenHash: string): Promise<SessionEntity | null> {
    return this.sessions.findOneBy({ tokenHash, expiresAt: MoreThan(new Date()) });
  }

  async deleteByTokenHash(tokenHash: string): Promise<void> {
    await this.sessions.delete({ tokenHash });
  }

  async deleteExpired(): Promise<number> {
    const result = await this.sessions.delete({ expiresAt: LessThan(new Date()) });
    return result.affected ?? 0;
  }
}
