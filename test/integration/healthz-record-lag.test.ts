import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';

let h: IntakeHarness;
beforeEach(async () => {
  h = await startIntakeHarness();
});
afterEach(async () => {
  await h.stop();
});

async function health(): Promise<Record<string, unknown>> {
  return (await (await fetch(`${h.bot.http.url}/healthz`)).json()) as Record<string, unknown>;
}

describe('/healthz and the community record', () => {
  it("says how long the oldest delivery has waited for the record's writer, which this process does not run", async () => {
    expect(await health()).toMatchObject({ status: 'ok', record_lag_s: 0 });
    // The writer runs where the gateway is; this process has none, so the case waits.
    expect((await h.postSigned(JSON.stringify(SAMPLE_DELIVERIES['case.created']))).status).toBe(204);
    h.now.ms += 90_000;
    expect((await h.postSigned(JSON.stringify(SAMPLE_DELIVERIES['shift.started']))).status).toBe(204);
    h.now.ms += 5_000;
    expect(await health()).toMatchObject({ status: 'ok', record_lag_s: 95 });

    // A writer (the process that holds the gateway) merges them: nothing waits.
    await h.bot.store.of(recordModule).recordPending(200);
    expect(await health()).toMatchObject({ status: 'ok', record_lag_s: 0 });
  });
});
