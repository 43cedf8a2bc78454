// Collects the problems one load of the schema files finds, so start-up can name them all at once,
// and remembers what failed so later checks don't report the same mistake again as a consequence.
import { SchemaError, SchemaErrors } from '../errors.js';

export class SchemaProblems {
  private readonly found: SchemaError[] = [];
  /** content-type and component uids whose file could not be read as a whole */
  private readonly brokenSchemas = new Set<string>();
  /** `<uid>#<attribute>` of attributes left out of their schema because they are wrong */
  private readonly brokenAttributes = new Set<string>();

  add(error: SchemaError): void {
    this.found.push(error);
  }

  /** Runs one check; a SchemaError it throws is recorded and `undefined` returned, anything else is a bug and propagates. */
  attempt<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      this.add(e);
      return undefined;
    }
  }

  markSchema(uid: string): void {
    this.brokenSchemas.add(uid);
  }

  markAttribute(uid: string, attribute: string): void {
    this.brokenAttributes.add(`${uid}#${attribute}`);
  }

  /** true when `uid` (or its attribute) was already reported, so a reference to it says nothing new */
  reported(uid: string, attribute?: string): boolean {
    return this.brokenSchemas.has(uid) || (attribute !== undefined && this.brokenAttributes.has(`${uid}#${attribute}`));
  }

  /** Throws the one problem as it is, or all of them together; returns when there are none. */
  throwIfAny(): void {
    if (this.found.length === 1) throw this.found[0]!;
    if (this.found.length > 1) throw new SchemaErrors(this.found);
  }
}
