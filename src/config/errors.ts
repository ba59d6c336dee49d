// The error a setting that cannot be used stops the start with: one line naming it (bin prints it, exit 2).
export class ConfigError extends Error {
  override name = 'ConfigError';
}
