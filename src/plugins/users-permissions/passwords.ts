// Password hashing with bcrypt (cost 10, as Strapi), so a user table copied from a Strapi database
// keeps logging in. Comparing against a fixed hash when no user matched costs what a real compare
// costs, so response time doesn't tell whether an identifier exists.
import bcrypt from 'bcryptjs';

const COST = 10;
/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently cut */
export const PASSWORD_MAX_BYTES = 72;

let decoy: Promise<string> | null = null;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

/** true when `plain` matches `hash`; with no hash (unknown user, no password) spends the same time and answers false */
export async function checkPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  if (typeof hash === 'string' && hash.startsWith('$2')) return bcrypt.compare(plain, hash);
  decoy ??= bcrypt.hash('folio-decoy-password', COST);
  await bcrypt.compare(plain, await decoy);
  return false;
}

export function tooLong(plain: string): boolean {
  return Buffer.byteLength(plain, 'utf8') > PASSWORD_MAX_BYTES;
}
