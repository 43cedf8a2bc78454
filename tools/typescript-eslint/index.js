// typescript-eslint parses with the `typescript` package's JavaScript API, which TypeScript 7 (the native compiler
// the project builds with) no longer ships: its peer range is `typescript >=4.8.4 <6.1.0`. npm can't nest a peer
// under a package that sits next to the project's own `typescript`, so this local package depends on TypeScript 6.0
// and typescript-eslint together, and npm installs both in its own node_modules. Delete it once typescript-eslint
// parses with TypeScript 7 and depend on `typescript-eslint` directly.
export { default } from 'typescript-eslint';
