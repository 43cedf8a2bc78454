// What the users-permissions routes share: the app's services plus the plugin's own.
import type { Services } from '../../http/services.js';
import type { Mailer } from '../../email/mailer.js';
import type { UsersPermissionsConfig } from './config.js';
import type { EmailTemplate, TemplateName } from './email-templates.js';
import type { UserTokens } from './jwt.js';
import type { Users } from './users.js';
import type { Sessions } from './sessions.js';

export const UP = 'plugin::users-permissions';

export interface UpContext {
  readonly services: Services;
  readonly config: UsersPermissionsConfig;
  readonly users: Users;
  readonly tokens: UserTokens;
  /** refresh mode's sessions; null in legacy mode */
  readonly sessions: Sessions | null;
  readonly mailer: Mailer;
  readonly templates: Readonly<Record<TemplateName, EmailTemplate>>;
  /** Strapi's `${server.url}${prefix}` */
  readonly apiUrl: string;
  /** mail that goes out after the response (password reset): failures are logged here */
  readonly logError: (message: string) => void;
}
