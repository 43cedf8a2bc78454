// A mistake in how the command was called: printed with the usage, exit code 2.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Flags = Record<string, string | boolean | undefined>;

export function flag(values: Flags, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
