// Users' access tokens (legacy-support mode): `{id, iat, exp}` signed with the shared JWT secret.
// Verification takes only the configured HMAC algorithm, so `alg: none` or a token signed with
// another key or algorithm is simply not a user's token.
import { SignJWT, jwtVerify } from 'jose';
import type { UsersPermissionsConfig } from './config.js';

const MAX_ROW_ID = 2 ** 31 - 1;

export class UserTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly jwt: UsersPermissionsConfig['jwt'],
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ id: userId })
      .setProtectedHeader({ alg: this.jwt.algorithm, typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + this.jwt.expiresInSeconds)
      .sign(this.key);
  }

  /** The user id a valid, unexpired token names, or null for anything else. */
  async userId(token: string): Promise<number | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [this.jwt.algorithm] });
      const id = payload['id'];
      const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : NaN;
      // row ids are 32-bit integer columns (serial on PostgreSQL, which refuses a larger parameter
      // outright): a larger id names no user
      return Number.isSafeInteger(n) && n > 0 && n <= MAX_ROW_ID ? n : null;
    } catch {
      return null;
    }
  }
}
