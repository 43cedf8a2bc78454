// The account a provider login signs into (behaviour.md §10.8): the user with the profile's email
// and this provider, or a new confirmed one with the default role and a unique username. Decided
// under the users lock, so two first logins racing with one profile make one account.
import { randomInt, randomUUID } from 'node:crypto';
import type { Tx } from '../../../documents/store/rows.js';
import { isScalar } from '../../../schema/types.js';
import type { UpContext } from '../context.js';
import type { Profile } from './profiles.js';

const USERNAME_ATTEMPTS = 5;
/** looks again after losing a race at most this often */
const ROUNDS = 5;

/** thrown inside the write when the users lock shows the world changed since the first look */
class Changed extends Error {}

async function usersWithEmail(tx: Tx, email: string): Promise<{ id: number; provider: string | null }[]> {
  const rows = await tx.selectFrom('up_users').select(['id', 'provider']).where('email', '=', email).orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), provider: r.provider === null ? null : String(r.provider) }));
}

async function usernameTaken(tx: Tx, username: string): Promise<boolean> {
  return (await tx.selectFrom('up_users').select('id').where('username', '=', username).limit(1).executeTakeFirst()) !== undefined;
}

function minUsernameLength(up: UpContext): number {
  const a = up.users.type.attributes.get('username');
  return a !== undefined && isScalar(a) ? (a.minLength ?? 3) : 3;
}

/** Strapi's rule: the name itself when long enough and free, else the name and four digits, else a UUID */
async function freeUsername(up: UpContext, base: string): Promise<string> {
  const tx = up.services.database.db;
  const baseFirst = base.length >= minUsernameLength(up);
  for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
    const candidate = attempt === 0 && baseFirst ? base : `${base}${randomInt(1000, 10000)}`;
    if (!(await usernameTaken(tx, candidate))) return candidate;
  }
  return randomUUID();
}

/** The user id a provider's profile signs into; throws Strapi's message when there is none. */
export async function providerAccount(up: UpContext, provider: string, profile: Profile): Promise<number> {
  const email = profile.email?.toLowerCase();
  if (!email) throw new Error('Email was not available.');
  const adv = up.config.advanced;
  for (let round = 1; ; round++) {
    const existing = await usersWithEmail(up.services.database.db, email);
    const own = existing.find((u) => u.provider === provider);
    if (own) return own.id;
    if (!adv.allow_register) throw new Error('Register action is actually not available.');
    if (existing.length && adv.unique_email) throw new Error('Email is already taken.');
    const roleId = await up.users.roleIdOfType(adv.default_role);
    if (roleId === undefined) throw new Error('Impossible to find the default role');
    const username = await freeUsername(up, profile.username?.trim() || email.split('@')[0]!);
    try {
      return await up.users.write({ username, email, provider, confirmed: true, blocked: false, role: roleId }, null, async (tx) => {
        const now = await usersWithEmail(tx, email);
        if (now.length !== existing.length || (await usernameTaken(tx, username))) throw new Changed();
      });
    } catch (e) {
      // another login made the account (or took the name) first: look again
      if (!(e instanceof Changed) || round >= ROUNDS) throw e;
    }
  }
}
