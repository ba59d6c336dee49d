// The Engine's gRPC execution service (./server.ts), its wire format (./wire.ts) and its requests (./request.ts).
export { grpcLogText, startGrpcServer, type GrpcDeps, type GrpcListenOptions, type GrpcServerHandle } from './server.ts';
export { toWire } from './wire.ts';
