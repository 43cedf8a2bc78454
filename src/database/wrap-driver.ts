// A Kysely dialect whose driver some of whose methods are replaced: the rest of the dialect, and every
// driver method not named, pass through unchanged.
import type { Dialect as KyselyDialect, Driver } from 'kysely';

/** Methods standing in for the driver's own; each gets the original driver to call through to. */
export type DriverOverrides = (driver: Driver) => Partial<Record<keyof Driver, (...args: never[]) => unknown>>;

export function wrapDriver(inner: KyselyDialect, overrides: DriverOverrides): KyselyDialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => {
      const driver = inner.createDriver();
      const own = overrides(driver) as Record<PropertyKey, unknown>;
      return new Proxy(driver, {
        get(target, key) {
          if (Object.hasOwn(own, key)) return own[key];
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}
