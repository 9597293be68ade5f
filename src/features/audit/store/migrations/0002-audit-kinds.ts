import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * What kind each audit line is (an admin action, a lookup of someone in the record, a person forgotten) and,
 * for a lookup, whom it was about (`player:<Roblox id>`, `member:<Discord id>`), so `/audit kind:` filters by it
 * and forgetting a person finds the lines that name them. Earlier lines are admin actions.
 */
export const auditKinds: MigrationStep = {
  name: 'audit-kinds',
  sqlite: `
    ALTER TABLE audit ADD COLUMN kind TEXT NOT NULL DEFAULT 'action' CHECK (kind IN ('action', 'lookup', 'forget'));
    ALTER TABLE audit ADD COLUMN subject TEXT;
    CREATE INDEX audit_by_kind ON audit (guild_id, kind, id);
    CREATE INDEX audit_by_subject ON audit (guild_id, subject) WHERE subject IS NOT NULL;
  `,
  postgres: `
    ALTER TABLE audit ADD COLUMN kind TEXT NOT NULL DEFAULT 'action' CHECK (kind IN ('action', 'lookup', 'forget'));
    ALTER TABLE audit ADD COLUMN subject TEXT;
    CREATE INDEX audit_by_kind ON audit (guild_id, kind, id);
    CREATE INDEX audit_by_subject ON audit (guild_id, subject) WHERE subject IS NOT NULL;
  `,
};
