// `svc-cli workspace …`: which provider services the company uses, at which version.
import { defineGroup } from '../../lib/command.ts';
import { workspaceApply, workspacePlan } from './plan.ts';
import { serviceAdd, serviceImport, serviceRemove, servicesList } from './services.ts';

export const workspace = defineGroup(
  'workspace',
  'Select, import and enable provider services for the whole workspace',
  [
    defineGroup('services', 'Search available services', [servicesList], [['$0 workspace services list --query github', 'find a service']]),
    defineGroup('service', 'Select, remove or import a service', [serviceAdd, serviceRemove, serviceImport], [
      ['$0 workspace service add demo-crm --version v1', 'select demo-crm v1'],
    ]),
    workspacePlan,
    workspaceApply,
  ],
  [
    ['$0 workspace service add demo-crm --version v1 && $0 workspace plan && $0 workspace apply', 'enable demo-crm v1'],
  ],
);
