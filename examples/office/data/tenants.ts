/**
 * The people and organisation of each sample tenant. Login users (users.yaml) appear here too,
 * alongside staff who only exist as data. Names are tenant-specific so a leak is visible.
 */
export interface TenantProfile {
  readonly tenant: string;
  readonly staff: readonly { user: string; department: string; region?: string }[];
  readonly customers: readonly string[];
  readonly projects: readonly string[];
}

export const OFFICE_TENANTS = ['acme', 'globex'] as const;
export type OfficeTenant = (typeof OFFICE_TENANTS)[number];

export const REGIONS = ['east', 'west', 'north', 'south'] as const;
export const DEPARTMENTS = ['sales', 'rd', 'finance', 'hr', 'ops'] as const;

export const TENANT_PROFILES: Readonly<Record<OfficeTenant, TenantProfile>> = {
  acme: {
    tenant: 'acme',
    staff: [
      { user: 'alice', department: 'sales', region: 'east' },
      { user: 'bob', department: 'sales', region: 'east' },
      { user: 'carol', department: 'finance' },
      { user: 'dave', department: 'ops' },
      { user: 'erin', department: 'hr' },
      { user: 'frank', department: 'rd' },
      { user: 'mallory', department: 'sales', region: 'west' },
      { user: 'ivan', department: 'rd' },
      { user: 'judy', department: 'rd' },
      { user: 'ken', department: 'sales', region: 'north' },
      { user: 'lena', department: 'ops' },
      { user: 'oscar', department: 'finance' },
    ],
    customers: [
      'Acme Client Zhonghua Trading',
      'Acme Client Hailan Logistics',
      'Acme Client Qingfeng Foods',
      'Acme Client Jinxing Motors',
      'Acme Client Baiyun Textiles',
      'Acme Client Donghai Pharma',
      'Acme Client Xinda Electronics',
      'Acme Client Huaxia Printing',
    ],
    projects: ['phoenix', 'atlas', 'hermes'],
  },
  globex: {
    tenant: 'globex',
    staff: [
      { user: 'gina', department: 'finance' },
      { user: 'hank', department: 'sales', region: 'south' },
      { user: 'iris', department: 'rd' },
      { user: 'jack', department: 'sales', region: 'west' },
      { user: 'kate', department: 'hr' },
      { user: 'liam', department: 'ops' },
    ],
    customers: [
      'Globex Client Nanshan Steel',
      'Globex Client Changjiang Shipping',
      'Globex Client Tianfu Tea',
      'Globex Client Lingyun Software',
      'Globex Client Pearl River Paper',
    ],
    projects: ['orion', 'vega'],
  },
};

/** True when `tenant` is one of the sample tenants (guards the data-file path). */
export function isOfficeTenant(tenant: string): tenant is OfficeTenant {
  return (OFFICE_TENANTS as readonly string[]).includes(tenant);
}
