import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError, UnauthenticatedError } from '@app/domain';
import { UserRepository } from '@app/persistence';
import { PasswordService } from './password.service.js';
import { SignInThrottle } from './sign-in-throttle.service.js';
import { SignUpThrottle } from './sign-up-throttle.service.js';

export interface AccountView {
  id: string;
  email: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordService,
    private readonly signInThrottle: SignInThrottle,
    private readonly signUpThrottle: SignUpThrottle,
  ) {}

  /** Counted per client IP before the hash, whether the email turns out taken or not. */
  async signUp(email: string, password: string, ip: string): Promise<AccountView> {
    await this.signUpThrottle.take(ip);
    return this.create(email, password);
  }

  /** An account made by an operator (the demo seed), with no client to throttle. */
  async create(email: string, password: string): Promise<AccountView> {
    const user = await this.users.create(normaliseEmail(email), await this.passwords.hash(password));
    if (!user) throw new ConflictError('email already registered');
    return { id: user.id, email: user.email };
  }

  /**
   * An operator's password reset (`npm run demo:reset`). Sessions already signed in stay valid
   * until they expire or sign out.
   */
  async resetPassword(email: string, password: string): Promise<AccountView> {
    const user = await this.users.findByEmail(normaliseEmail(email));
    if (!user || !(await this.users.setPasswordHash(user.id, await this.passwords.hash(password))))
      throw new NotFoundError('user not found');
    return { id: user.id, email: user.email };
  }

  /** Same message, and the same argon2 work, whether the email or the password is wrong. */
  async signIn(email: string, password: string, ip: string): Promise<AccountView> {
    const normalised = normaliseEmail(email);
    // The attempt counts as a failure from here on unless the password turns out right.
    const attempt = await this.signInThrottle.begin(normalised, ip);
    const user = await this.users.findByEmail(normalised);
    const ok = await this.passwords.verify(user?.passwordHash ?? null, password);
    if (!user || !ok) throw new UnauthenticatedError('invalid email or password');
    await attempt.succeeded();
    return { id: user.id, email: user.email };
  }

  async get(userId: string): Promise<AccountView> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundError('user not found');
    return { id: user.id, email: user.email };
  }
}
