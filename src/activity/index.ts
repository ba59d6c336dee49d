export { ActivityLog, type ReceiptInput } from './activity-log.ts';
