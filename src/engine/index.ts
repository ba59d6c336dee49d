// The Engine: its modules assembled (./assemble.ts), then started and stopped (./start.ts).
export { assemble, type EngineOptions } from './assemble.ts';
export { startEngine, type Engine } from './start.ts';
