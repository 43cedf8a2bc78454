// Password hashing with bcrypt (cost 10, as Strapi), so a user table copied from a Strapi database
// keeps logging in. The native `bcrypt` package (prebuilt binaries inside the package) hashes on
// libuv's thread pool: bcryptjs, in JavaScript, spent ~70 ms of the event loop per login, stalling
// every other request meanwhile, and was ~1.7x slower per hash here.
// Comparing against a fixed hash when no user matched costs what a real compare costs, so response
// time doesn't tell whether an identifier exists.
type Bcrypt = typeof import('bcrypt');

const COST = 10;
/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently cut */
export const PASSWORD_MAX_BYTES = 72;

let lib: Promise<Bcrypt> | null = null;
let decoy: Promise<string> | null = null;

// loaded on first use: a server that never sees a login doesn't load the addon
const bcrypt = (): Promise<Bcrypt> => (lib ??= import('bcrypt').then((m) => m.default ?? m));

export async function hashPassword(plain: string): Promise<string> {
  return (await bcrypt()).hash(plain, COST);
}

/** true when `plain` matches `hash`; with no hash (unknown user, no password) spends the same time and answers false */
export async function checkPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  const b = await bcrypt();
  // no stored password can be ill-formed text (passwordProblem), so such a plain one matches none
  if (typeof hash === 'string' && hash.startsWith('$2') && isWellFormed(plain)) {
    try {
      return await b.compare(plain, hash);
    } catch {
      // a malformed stored hash matches nothing
      return false;
    }
  }
  decoy ??= b.hash('folio-decoy-password', COST);
  await b.compare(plain, await decoy);
  return false;
}

export function tooLong(plain: string): boolean {
  return Buffer.byteLength(plain, 'utf8') > PASSWORD_MAX_BYTES;
}

// a code point of category Cs under the u flag: only a surrogate without its partner
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a password is text bcrypt can tell apart: an unpaired UTF-16 surrogate reaches bcrypt as
 * U+FFFD, so "\ud800" and "\udfff" (and "\ufffd") would be one password. (Strapi's bcryptjs runs out of
 * memory on such a password.)
 */
export function isWellFormed(plain: string): boolean {
  return !LONE_SURROGATE.test(plain);
}

/** Why a new password can't be stored, or null. */
export function passwordProblem(plain: string): string | null {
  if (tooLong(plain)) return `Password must be less than ${PASSWORD_MAX_BYTES + 1} bytes`;
  if (!isWellFormed(plain)) return 'Password must be valid Unicode text (it holds an unpaired surrogate)';
  return null;
}
