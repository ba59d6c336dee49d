export { EgressPolicy, EgressRefusedError, type EgressRange } from './policy.ts';
export { egressConnector, type EgressConnectorOptions } from './connector.ts';
export { egressFailure } from './failure.ts';
