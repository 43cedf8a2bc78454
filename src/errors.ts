// The error hierarchy every layer throws; http/error-handler.ts maps it to responses in one place.

export type ErrorDetails = Record<string, unknown>;

export interface FieldError {
  path: string[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

export abstract class FolioError extends Error {
  abstract readonly status: number;
  readonly details: ErrorDetails | undefined;
  constructor(message: string, details: ErrorDetails | undefined = {}) {
    super(message);
    this.details = details;
  }
}

export class ApplicationError extends FolioError {
  readonly status: number = 400;
  override readonly name: string = 'ApplicationError';
}

export class ValidationError extends ApplicationError {
  override readonly name: string = 'ValidationError';
  /** a list of field errors: message is the single one's, or "<n> errors occurred" */
  static of(errors: FieldError[]): ValidationError {
    const message = errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`;
    return new ValidationError(message, { errors });
  }
  /** the shape Strapi's query and body validators use for an unknown or forbidden key */
  static invalidKey(key: string, path: string | null, source: 'query' | 'body', param?: string): ValidationError {
    const message = path === null || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`;
    const details: ErrorDetails = { key, path, source };
    if (param !== undefined) details['param'] = param;
    return new ValidationError(message, details);
  }
}

export class PaginationError extends ApplicationError {
  override readonly name = 'PaginationError';
}

/** a request missing something it must carry (Strapi's BadRequestError, e.g. "Missing refresh token") */
export class BadRequestError extends FolioError {
  readonly status = 400;
  override readonly name = 'BadRequestError';
}

export class UnauthorizedError extends FolioError {
  readonly status = 401;
  override readonly name = 'UnauthorizedError';
}

export class ForbiddenError extends FolioError {
  readonly status = 403;
  override readonly name = 'ForbiddenError';
}

export class NotFoundError extends FolioError {
  readonly status = 404;
  override readonly name = 'NotFoundError';
}

export class PayloadTooLargeError extends FolioError {
  readonly status = 413;
  override readonly name = 'PayloadTooLargeError';
}

export class RateLimitError extends FolioError {
  readonly status = 429;
  override readonly name = 'RateLimitError';
}

/**
 * The database could not take the write now (a deadlock, a serialization failure or a busy lock
 * that outlasted every retry of the whole transaction): nothing was written, and the same request
 * can succeed when sent again.
 */
export class ServiceUnavailableError extends FolioError {
  readonly status = 503;
  override readonly name = 'ServiceUnavailableError';
}

const STOPPED = { read: 'this read', write: 'this write', lookup: 'a lookup this request needed' } as const;
const STOPPED_ADVICE = {
  read: ': ask for less (narrower filters, fewer populated relations or a smaller page)',
  write: ': nothing of it was written',
  lookup: '',
} as const;

/**
 * A statement the database stopped at its time bound (config/database `statement_timeout`): sending the
 * request again would meet the same bound, so unlike ServiceUnavailableError no retry-after is given.
 * A write's transaction is rolled back with it, so nothing of the write stays.
 */
export class StatementTimeoutError extends FolioError {
  readonly status = 503;
  override readonly name = 'ServiceUnavailableError';
  /** `stopped`: a content read, a write, or a lookup the request needed on the way (its token, user, file) */
  constructor(boundMs: number, stopped: 'read' | 'write' | 'lookup' = 'read') {
    super(`The database stopped ${STOPPED[stopped]} after ${boundMs / 1000} s${STOPPED_ADVICE[stopped]}`);
  }
}

/** A schema file that can't be loaded: start-up prints `message` alone and exits 1. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  constructor(file: string, attribute: string | null, problem: string) {
    super(`${file}${attribute ? `: attribute "${attribute}"` : ''}: ${problem}`);
  }
}

/**
 * Every problem one load of the schema files found, so a user fixes them in one pass instead of
 * one start per problem: start-up prints the message (a count, then one line each) and exits 1.
 */
export class SchemaErrors extends Error {
  override readonly name = 'SchemaErrors';
  constructor(readonly problems: readonly SchemaError[]) {
    super(`Found ${problems.length} problems in the schema files:\n${problems.map((p) => `  ${p.message}`).join('\n')}`);
  }
}

/** Bad configuration: start-up prints the message alone and exits 1. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
