// Engine settings (./settings.ts) read from the environment (./load.ts), and what the transport they
// describe means for security (./transport.ts).
export { ConfigError } from './errors.ts';
export { intFrom, isLoopbackName, loadConfig } from './load.ts';
export { SecretHeaders, type OtlpProtocol, type OtlpTraces, type TracesSampler } from './otel.ts';
export type { EngineConfig } from './settings.ts';
export { isLoopbackHost, plainHttpWarning } from './transport.ts';
