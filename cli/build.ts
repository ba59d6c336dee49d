// Bundles svc-cli into one ESM file that plain Node 24 runs from anywhere (Node does not
// type-strip files under node_modules, and an installed CLI should not need the checkout):
//   node cli/build.ts [--outfile dist/svc-cli.mjs]
// The skill templates are embedded, so the bundle is self-contained. The test suite runs svc-cli
// from this same bundle (test/global-setup.ts): what it checks is what install.sh ships.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const templatesDir = join(root, 'templates/skills');

function templates(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, templates(path));
    else out[relative(templatesDir, path).split('\\').join('/')] = readFileSync(path, 'utf8');
  }
  return out;
}

/** Writes the bundle to `outfile`. */
export async function buildCli(outfile: string): Promise<void> {
  await build({
    entryPoints: [join(root, 'cli/bin/svc-cli.ts')],
    outfile: resolve(outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    legalComments: 'none',
    logLevel: 'warning',
    // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow: take its ESM build.
    alias: { 'jsonc-parser': join(root, 'node_modules/jsonc-parser/lib/esm/main.js') },
    // Bundled CommonJS dependencies (handlebars) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module';\nconst require = __svcCreateRequire(import.meta.url);" },
    plugins: [
      {
        // The generated validators make their own require() for ajv's runtime helpers; in the bundle
        // the banner's is used instead, so esbuild sees plain require() calls and bundles the helpers.
        name: 'bundle-validator-helpers',
        setup(b) {
          b.onLoad({ filter: /[\\/]generated[\\/]engine-api[\\/][a-z-]+-validators\.js$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8')
              .replace("import { createRequire } from 'node:module';", '')
              .replace('const require = createRequire(import.meta.url);', ''),
            loader: 'js',
          }));
        },
      },
      {
        name: 'embed-skill-templates',
        setup(b) {
          b.onLoad({ filter: /[\\/]cli[\\/]lib[\\/]embedded-templates\.ts$/ }, () => ({
            contents: `export const embeddedTemplates = ${JSON.stringify(templates(templatesDir))};`,
            loader: 'js',
          }));
        },
      },
    ],
  });
}

// Run as a script (`node cli/build.ts`), not imported: import.meta.main only exists from Node 24.2.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outfile: { type: 'string', default: join(root, 'dist/svc-cli.mjs') } } });
  await buildCli(values.outfile);
  process.stdout.write(`built ${relative(process.cwd(), resolve(values.outfile)) || values.outfile}\n`);
}
