export { ENGINE_STATUS, EngineError, failure, success, toEnvelope, type EngineErrorCode, type Envelope, type EnvelopeError, type ProviderExecution, type RecoveryContract } from './envelope.ts';
