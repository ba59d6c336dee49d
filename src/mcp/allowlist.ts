export { allows } from '../calls/index.ts';
