// Makes the database connection refuse chosen statements, the way a database refuses them (a deadlock,
// a constraint): injected as a Kysely plugin where the test builds the app, so the production write
// path runs unchanged up to the refused statement.
import type { InsertQueryNode, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** Each INSERT into `table` first asks `refusal`: an error to throw for it, or undefined to let it run. */
export function refuseInsertsInto(table: string, refusal: () => Error | undefined): KyselyPlugin {
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node;
      if (node.kind === 'InsertQueryNode' && (node as InsertQueryNode).into?.table.identifier.name === table) {
        const e = refusal();
        if (e) throw e;
      }
      return node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result;
    },
  };
}
