import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id parameters: 19 MiB of memory, 2 passes, 1 lane. Hashes are PHC strings. */
const ARGON2ID = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordService {
  /** A real hash of a random password, verified when the email is unknown so both paths cost the same. */
  private readonly decoyHash = hash(`decoy-${Math.random()}`, ARGON2ID);

  hash(password: string): Promise<string> {
    return hash(password, ARGON2ID);
  }

  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    const target = passwordHash ?? (await this.decoyHash);
    const ok = await verify(target, password).catch(() => false);
    return passwordHash !== null && ok;
  }
}
