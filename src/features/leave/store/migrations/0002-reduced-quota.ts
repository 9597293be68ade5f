import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * `leave_reduced_quota`: a role's reduced quota (/quota set reduced:), the hours a member of the role on approved
 * reduced activity (/leave request type:reduced) is to reach instead of the role's quota. A role without a row:
 * such a member is excused, as one on leave is. Kept beside leave rather than in `duty_quota`, whose rows stay as
 * they are.
 */
const SQL = `
    CREATE TABLE leave_reduced_quota (
      guild_id TEXT NOT NULL,
      role_id  TEXT NOT NULL,
      hours    INTEGER NOT NULL,
      PRIMARY KEY (guild_id, role_id)
    );
`;

export const reducedQuota: MigrationStep = { name: 'reduced-quota', sqlite: SQL, postgres: SQL };
