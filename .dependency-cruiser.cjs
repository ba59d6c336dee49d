// Import rules, checked by `npm run lint:deps` (part of `npm test`); docs/architecture.md ("Layers")
// states them in words. Type-only imports count like any other (tsPreCompilationDeps below): a cycle
// of types is still a cycle a reader has to untangle.

/**
 * The src/<concept> folders by floor, lowest first, as the import graph has them. A concept imports
 * only concepts on lower floors (and its own files), never one on its floor or above. A new folder
 * gets a floor here and in docs/architecture.md before it can import anything.
 */
const FLOORS = [
  ['config', 'coordination', 'demo-provider', 'envelope', 'ids', 'json-pointer', 'log', 'metrics', 'sandbox', 'shell', 'store', 'telemetry'],
  ['activity', 'credentials', 'egress', 'identity', 'json-input', 'retention'],
  ['catalog', 'oauth'],
  ['workspace'],
  ['connections'],
  ['execution'],
  ['unified', 'approvals'],
  ['apps', 'docs', 'sdkgen'],
  ['calls', 'codegen'],
  ['grpc', 'mcp'],
  ['server'],
  ['engine'],
  ['bin'],
];

const either = (names) => `(${names.join('|')})`;
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** One rule per floor: nothing on it imports a concept on its own floor or a higher one. */
const floorRules = FLOORS.slice(0, -1).map((floor, n) =>
  rule(
    `floor-${n}`,
    `${floor.map((c) => `src/${c}`).join(', ')} (floor ${n}, docs/architecture.md) may import only concepts on lower floors: move what is shared down a floor, or the importer up`,
    { path: `^src/${either(floor)}/` },
    { path: `^src/${either(FLOORS.slice(n).flat())}/`, pathNot: '^src/$1/' },
  ),
);

module.exports = {
  forbidden: [
    rule('no-circular', "Part of an import cycle (type-only imports included): move what both sides need into a lower file, e.g. the concept's types.ts", {}, { circular: true }),
    // Not orphans: declarations beside generated validators, and the gRPC stubs src/sdkgen/typescript.ts copies into SDK packages.
    rule('no-orphans', 'Imports nothing and nothing imports it: use it or delete it', { orphan: true, pathNot: ['\\.d\\.ts$', '^generated/grpc/engine\\.js$'] }, {}),
    rule('not-to-unresolvable', 'Imports a file or package that does not resolve', {}, { couldNotResolve: true }),
    // spec/ → generated/ → src/ → cli/: each imports only what is left of it; nothing imports test/.
    rule('generated-imports-no-code', 'generated/ is written from spec/ by `npm run gen` and stands alone: it never imports src/, cli/ or test/', { path: '^generated/' }, { path: '^(src|cli|test)/' }),
    rule('src-imports-no-cli-or-test', 'src/ (the Engine) never imports cli/ or test/', { path: '^src/' }, { path: '^(cli|test)/' }),
    rule('cli-imports-no-test', 'cli/ never imports test/', { path: '^cli/' }, { path: '^test/' }),
    rule(
      'concept-without-floor',
      'A src/ folder not in FLOORS (.dependency-cruiser.cjs): give it a floor there and in docs/architecture.md',
      { path: '^src/[^/]+/', pathNot: `^src/${either(FLOORS.flat())}/` },
      {},
    ),
    ...floorRules,
  ],
  options: {
    // `import type` is erased before run time; counted anyway.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules/' },
    // Package subpaths (`yargs/helpers`, `@modelcontextprotocol/sdk/types.js`) resolve through "exports".
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
