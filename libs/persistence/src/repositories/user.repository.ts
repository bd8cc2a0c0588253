import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { isUuid } from '@app/domain';
import { UserEntity } from '../entities/user.entity.js';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class UserRepository {
  private readonly users: Repository<UserEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  /** Inserts a user; returns null when the (normalised) email is already taken. */
  async create(email: string, passwordHash: string): Promise<UserEntity | null> {
    const user = this.users.create({ id: randomUUID(), email, passwordHash });
    try {
      return await this.users.save(user);
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null;
      throw error;
    }
  }

  /** Replaces a user's password hash; false when there is no such user. */
  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    const result = await this.users.update({ id }, { passwordHash });
    return (result.affected ?? 0) > 0;
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email });
  }

  findById(id: string): Promise<UserEntity | null> {
    return isUuid(id) ? this.users.findOneBy({ id }) : Promise.resolve(null);
  }
}
