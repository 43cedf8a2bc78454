// Password hashing with bcrypt (cost 10, as Strapi), so a user table copied from a Strapi database
// keeps logging in. The native implementation hashes on libuv's thread pool: bcryptjs, in JavaScript,
// spent ~70 ms of the event loop per login, stalling every other request meanwhile (bench/auth.mjs).
// Comparing against a fixed hash when no user matched costs what a real compare costs, so response
// time doesn't tell whether an identifier exists.
type Bcrypt = typeof import('@node-rs/bcrypt');

const COST = 10;
/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently cut */
export const PASSWORD_MAX_BYTES = 72;

let lib: Promise<Bcrypt> | null = null;
let decoy: Promise<string> | null = null;

// loaded on first use: a server that never sees a login doesn't load the addon
const bcrypt = (): Promise<Bcrypt> => (lib ??= import('@node-rs/bcrypt'));

export async function hashPassword(plain: string): Promise<string> {
  return (await bcrypt()).hash(plain, { cost: COST });
}

/** true when `plain` matches `hash`; with no hash (unknown user, no password) spends the same time and answers false */
export async function checkPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  const b = await bcrypt();
  if (typeof hash === 'string' && hash.startsWith('$2')) {
    try {
      return await b.verify(plain, hash);
    } catch {
      // a malformed stored hash matches nothing
      return false;
    }
  }
  decoy ??= b.hash('folio-decoy-password', { cost: COST });
  await b.verify(plain, await decoy);
  return false;
}

export function tooLong(plain: string): boolean {
  return Buffer.byteLength(plain, 'utf8') > PASSWORD_MAX_BYTES;
}
