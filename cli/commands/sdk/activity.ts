// `svc-cli sdk activity <sdk>@<version>`: the receipts of an SDK version (../app/activity.ts).
import { activityCommand } from '../app/activity.ts';
import { SDK } from '../../lib/definition.ts';
import { resolveSdkRef } from './versions.ts';

export const sdkActivity = activityCommand(SDK, {
  ref: 'crm@1.0.0',
  refHelp: '<sdk_name>@<version>',
  resolve: resolveSdkRef,
  examples: [
    ['$0 sdk activity crm@1.0.0', 'what ran, how long the provider took, what came back'],
    ['$0 sdk activity crm@1.0.0 --json --limit 5', 'the last five receipts as JSON'],
  ],
});
