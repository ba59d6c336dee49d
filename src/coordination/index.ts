export { LocalCoordinator, ownerToken, type Coordinator, type Lock } from './coordinator.ts';
