// svc-cli's version is the project's version (bundled into dist/svc-cli.mjs by `npm run build:cli`).
import pkg from '../../package.json' with { type: 'json' };

export const CLI_VERSION: string = pkg.version;
