// /auth/local, /auth/local/register, passwords and email confirmation (behaviour.md §10.3, §10.6,
// §10.7). Each route passes the one permission check first (the Public role holds these actions by
// default), then checks its body the way Strapi's yup schemas do.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ALLOW_ALL } from '../../auth/ability.js';
import { ApplicationError, ValidationError } from '../../errors.js';
import { authorize } from '../../http/authorize.js';
import { fieldError, notTypeMessage } from '../../documents/input/messages.js';
import { sendJson } from '../../http/send-json.js';
import { redirect } from '../../http/redirect.js';
import { newConfirmationToken, newResetCode, sendConfirmationMail, sendResetMail } from './account-mail.js';
import { BodyCheck, copiedBodyOf, type Body } from './body.js';
import { UP, type UpContext } from './context.js';
import { checkPassword } from './passwords.js';
import { answeredUser, authResponse, deviceIdOf } from './auth-response.js';
import { accountTaken, type UserRow } from './users.js';

/** account fields a registering client never sets, whatever register.allowedFields lists */
const ACCOUNT_FIELDS = new Set(['role', 'confirmed', 'blocked', 'provider', 'resetPasswordToken', 'confirmationToken']);

/**
 * Whether a string from a request can equal a stored one: no stored string holds U+0000 (the model
 * refuses it on every dialect), and PostgreSQL refuses it even as a query parameter — so such a
 * value matches nothing rather than reaching the database.
 */
const storable = (v: string): boolean => !v.includes('\u0000');

/** a register body without the session's `deviceId` (checked here, before any write) */
function withoutDeviceId(body: Body): Body {
  deviceIdOf(body);
  const { deviceId: _, ...rest } = body;
  return rest;
}

/** a password body's allowed keys: in refresh mode also the new session's `deviceId` (checked here, before any write) */
function sessionFields(up: UpContext, body: unknown, fields: string[]): string[] {
  if (!up.sessions) return fields;
  deviceIdOf(body);
  return [...fields, 'deviceId'];
}

export function registerAuthRoutes(app: FastifyInstance, up: UpContext): void {
  const { services, users } = up;
  const prefix = services.config.rest.prefix;
  const adv = up.config.advanced;

  app.post(`${prefix}/auth/local`, async (req: FastifyRequest, reply: FastifyReply) => {
    await authorize(services, req, `${UP}.auth.callback`);
    if (up.sessions) deviceIdOf(req.body);
    const check = new BodyCheck(req.body);
    const identifier = check.string('identifier');
    const password = check.string('password');
    check.done();
    const found = storable(identifier!) ? await users.rowByLogin(identifier!) : undefined;
    // compared again here: MySQL's PAD SPACE collations take 'alice ' for 'alice'
    const row = found && (found.email === identifier!.toLowerCase() || found.username === identifier) ? found : undefined;
    // an unknown identifier costs the same bcrypt compare as a wrong password
    const ok = await checkPassword(password!, row?.password);
    if (!row || !ok) throw new ValidationError('Invalid identifier or password');
    if (adv.email_confirmation && !row.confirmed) throw new ApplicationError('Your account email is not confirmed');
    if (row.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
    return sendJson(reply, await authResponse(up, row.id, req, reply, { passwordHash: row.password ?? null }));
  });

  app.post(`${prefix}/auth/local/register`, async (req, reply) => {
    const caller = await authorize(services, req, `${UP}.auth.register`);
    if (!adv.allow_register) throw new ApplicationError('Register action is currently disabled');
    const sent = copiedBodyOf(req.body);
    // refresh mode: the session's device, not a user attribute
    const body = up.sessions ? withoutDeviceId(sent) : sent;
    const allowed = new Set(['username', 'email', 'password', ...up.config.register.allowedFields]);
    const extra = Object.keys(body).filter((k) => !allowed.has(k));
    if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
    // an account field allowedFields lists (farmapaz-strapi lists role) is accepted and never taken from
    // the client: Strapi sets role, confirmed and provider itself; Folio keeps every account field its own
    for (const k of ACCOUNT_FIELDS) delete body[k];
    // a name allowedFields lists that the user type has no attribute for is accepted and not stored, as
    // in Strapi 5.54, whose write ignores it (Folio's user write would refuse it as an unknown key)
    for (const k of Object.keys(body)) if (!users.type.attributes.has(k)) delete body[k];
    const check = new BodyCheck(body);
    const email = check.string('email', { email: true })?.toLowerCase();
    const username = check.string('username');
    const password = check.string('password', { password: true });
    await check.rule('password', up.config.validatePassword);
    check.done();
    const roleId = await users.roleIdOfType(adv.default_role);
    if (roleId === undefined) throw new ApplicationError('Impossible to find the default role');
    const refuse = (): never => {
      throw new ApplicationError('Email or Username are already taken');
    };
    // a username the model refuses (U+0000) can't be anyone's: the model check below answers it
    if (storable(username!) && (await accountTaken(services.database.db, email!, username!, adv.unique_email))) refuse();
    const values: Body = { ...body, username, email, password, provider: 'local', confirmed: !adv.email_confirmation, role: roleId };
    users.validatePlain(values, true);
    if (adv.email_confirmation) up.mailer.ensureCanSend();
    const id = await users.write(values, null, async (tx) => {
      if (await accountTaken(tx, email!, username!, adv.unique_email)) refuse();
    });
    if (!adv.email_confirmation) return sendJson(reply, await authResponse(up, id, req, reply, { newDevice: true, tokenInBody: true, viewer: caller.ability }));
    const row = (await users.rowWhere({ column: 'id', value: id }))!;
    const code = newConfirmationToken();
    await users.setColumns(id, { confirmation_token: code });
    const user = await answeredUser(up, id, caller.ability);
    try {
      await sendConfirmationMail(up, row, user, code);
    } catch (e) {
      // Strapi keeps an account nobody can confirm; the client may simply register again here
      await users.remove(row);
      up.logError(`confirmation mail to ${row.email} failed: ${(e as Error).message}`);
      throw new ApplicationError('Error sending confirmation email');
    }
    return sendJson(reply, { user });
  });

  app.post(`${prefix}/auth/forgot-password`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.forgotPassword`);
    const check = new BodyCheck(req.body).only(['email']);
    const email = check.string('email', { email: true });
    check.done();
    up.mailer.ensureCanSend();
    const row = await users.rowWhere({ column: 'email', value: email!.toLowerCase() });
    // the mail goes out after the answer, so an existing address takes no longer to answer than an unknown one
    if (row && !row.blocked) void resetLink(up, row);
    return sendJson(reply, { ok: true });
  });

  app.post(`${prefix}/auth/reset-password`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.resetPassword`);
    const check = new BodyCheck(req.body).only(sessionFields(up, req.body, ['code', 'password', 'passwordConfirmation']));
    // yup lists the fields' errors in this order (the confirmation refers to the password)
    check.confirmation();
    const password = check.string('password', { password: true });
    const code = check.string('code');
    await check.rule('password', up.config.validatePassword);
    check.done();
    const wrong = (): never => {
      throw new ValidationError('Incorrect code provided');
    };
    const found = storable(code!) ? await users.rowWhere({ column: 'reset_password_token', value: code! }) : undefined;
    // compared again here: MySQL's PAD SPACE collations take 'code ' for 'code'
    const row = found?.resetPasswordToken === code! ? found : wrong();
    users.validatePlain({ password }, false);
    await users.write({ password }, row, async (tx) => {
      // single use: of two resets racing with one code, only the first clears it
      const r = await tx.updateTable('up_users').set({ reset_password_token: null }).where('id', '=', row.id).where('reset_password_token', '=', code!).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) wrong();
    });
    return sendJson(reply, await authResponse(up, row.id, req, reply, { revokeSessions: true, newDevice: true, tokenInBody: true }));
  });

  app.post(`${prefix}/auth/change-password`, async (req, reply) => {
    const caller = await authorize(services, req, `${UP}.auth.changePassword`);
    if (caller.kind !== 'user' || !caller.user) throw new ApplicationError('You must be authenticated to reset your password');
    const check = new BodyCheck(req.body).only(sessionFields(up, req.body, ['currentPassword', 'password', 'passwordConfirmation']));
    check.confirmation();
    const password = check.string('password', { password: true });
    const current = check.string('currentPassword');
    await check.rule('password', up.config.validatePassword);
    check.done();
    const row = await users.rowWhere({ column: 'id', value: caller.user.id });
    if (!row || !(await checkPassword(current!, row.password))) throw new ValidationError('The provided current password is invalid');
    if (current === password) throw new ValidationError('Your new password must be different than your current password');
    users.validatePlain({ password }, false);
    await users.write({ password }, row, async (tx) => {
      // checked against the hash read above, now under the users lock: of changes racing with one
      // current password (on any process) only the first replaces it, as one after another would
      const now = await tx.selectFrom('up_users').select('password').where('id', '=', row.id).executeTakeFirst();
      if (now?.password !== row.password) throw new ValidationError('The provided current password is invalid');
      // a reset code mailed before the change would set another password over the one just chosen
      // (by whoever holds that mail): the change ends it, as it ends every session
      await tx.updateTable('up_users').set({ reset_password_token: null }).where('id', '=', row.id).execute();
    });
    return sendJson(reply, await authResponse(up, row.id, req, reply, { revokeSessions: true, newDevice: true, tokenInBody: true }));
  });

  app.get(`${prefix}/auth/email-confirmation`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.emailConfirmation`);
    const code = (req.query as Record<string, unknown>)['confirmation'];
    // yup's required, as Strapi checks the query: the field error in details like every body check's
    if (code === undefined || code === null || code === '') throw ValidationError.of([fieldError(['confirmation'], 'confirmation is a required field', code ?? undefined)]);
    if (typeof code !== 'string') throw ValidationError.of([fieldError(['confirmation'], notTypeMessage(['confirmation'], 'string', code), code)]);
    if (!storable(code)) throw new ValidationError('Invalid token');
    // found first and compared here (MySQL's PAD SPACE collations take 'code ' for 'code'), then
    // cleared only if still there: of two uses racing, one confirms
    const row = await users.rowWhere({ column: 'confirmation_token', value: code });
    if (row?.confirmationToken !== code) throw new ValidationError('Invalid token');
    const r = await services.database.db
      .updateTable('up_users')
      .set({ confirmed: services.database.dialect.toBoolean(true), confirmation_token: null, updated_at: services.database.dialect.toDatetime(new Date()) })
      .where('id', '=', row.id)
      .where('confirmation_token', '=', code)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new ValidationError('Invalid token');
    return redirect(req, reply, adv.email_confirmation_redirection ?? '/');
  });

  app.post(`${prefix}/auth/send-email-confirmation`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.sendEmailConfirmation`);
    const check = new BodyCheck(req.body);
    const email = check.string('email', { email: true });
    check.done();
    const row = await users.rowWhere({ column: 'email', value: email!.toLowerCase() });
    if (!row) return sendJson(reply, { email, sent: true });
    if (row.confirmed) throw new ApplicationError('Already confirmed');
    if (row.blocked) throw new ApplicationError('User blocked');
    up.mailer.ensureCanSend();
    const code = newConfirmationToken();
    await users.setColumns(row.id, { confirmation_token: code });
    try {
      await sendConfirmationMail(up, row, await users.view(row.id, ALLOW_ALL), code);
    } catch (e) {
      up.logError(`confirmation mail to ${row.email} failed: ${(e as Error).message}`);
      throw new ApplicationError('Error sending confirmation email');
    }
    return sendJson(reply, { email: row.email, sent: true });
  });
}

/** Saves a fresh reset code and mails it; a failed mail takes the code back (it reached nobody). */
async function resetLink(up: UpContext, row: UserRow): Promise<void> {
  const code = newResetCode();
  try {
    await up.users.setColumns(row.id, { reset_password_token: code });
    await sendResetMail(up, row, await up.users.view(row.id, ALLOW_ALL), code);
  } catch (e) {
    up.logError(`password reset mail to ${row.email} failed: ${(e as Error).message}`);
    // only this code: a newer forgot-password (any process) may have replaced it meanwhile, and its
    // mail reached the user
    await up.users.clearColumnIf(row.id, 'reset_password_token', code).catch(() => undefined);
  }
}
