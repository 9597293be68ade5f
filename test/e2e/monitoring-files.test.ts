import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFeedHarness, type FeedHarness } from './feed-harness.js';

/**
 * What a host loads into Prometheus and Grafana (docs/monitoring/) and what docs/hosting.md's Metrics section tells
 * them to alert on name only metrics a running bot serves: a metric renamed or dropped fails here, not in a host's
 * alerting, which would stay silent.
 */

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/** Prometheus' own series, which no bot serves: a target's `up`. */
const PROMETHEUS_OWN = new Set(['up']);
/** The names a PromQL expression reads: our metrics, prom-client's process metrics, Prometheus' `up`. */
function metricsIn(expression: string): string[] {
  return [...expression.matchAll(/\b(?:bridge|process|nodejs)_[a-z0-9_]+\b|\bup(?=\{)/g)].map((match) => match[0]);
}

/** Each rule of a Prometheus rules file as the file writes it (one `- alert:` and one `expr:` line each). */
function alertRules(text: string): Array<{ alert: string; expr: string; hasSummary: boolean }> {
  return text
    .split(/^\s+- alert: /m)
    .slice(1)
    .map((block) => ({
      alert: block.split('\n')[0]?.trim() ?? '',
      expr: /^\s+expr: (.+)$/m.exec(block)?.[1] ?? '',
      hasSummary: /^\s+summary: \S/m.test(block),
    }));
}

/** Every PromQL expression of a Grafana dashboard, in its panels and their rows. */
function dashboardExpressions(dashboard: unknown): string[] {
  if (Array.isArray(dashboard)) return dashboard.flatMap(dashboardExpressions);
  if (typeof dashboard !== 'object' || dashboard === null) return [];
  return Object.entries(dashboard).flatMap(([key, value]) =>
    key === 'expr' && typeof value === 'string' ? [value] : dashboardExpressions(value),
  );
}

/** hosting.md's Metrics section: its table of metrics and what to alert on. */
function hostingMetricsSection(): string {
  const hosting = read('docs/hosting.md');
  const start = hosting.indexOf('\n## Metrics\n');
  const end = hosting.indexOf('\n## ', start + 1);
  expect(start, 'docs/hosting.md has a Metrics section').toBeGreaterThan(0);
  return hosting.slice(start, end === -1 ? undefined : end);
}

let h: FeedHarness;
/** The metric families a bot that runs everything (intake, feed, gateway) serves, by name, with their types. */
let served: Map<string, string>;

beforeAll(async () => {
  h = await startFeedHarness({ config: { METRICS_PORT: 0 } });
  const text = await (await fetch(`${h.bot.metricsHttp?.url ?? ''}/metrics`)).text();
  served = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']));
});

afterAll(async () => {
  await h.stop();
});

/** True when the bot serves `name`: a family, or a histogram's bucket, sum or count series. */
function isServed(name: string): boolean {
  if (served.has(name)) return true;
  const family = /^(.+)_(bucket|sum|count)$/.exec(name)?.[1];
  return family !== undefined && served.get(family) === 'histogram';
}

function unknownIn(names: readonly string[]): string[] {
  return [...new Set(names)].filter((name) => !isServed(name) && !PROMETHEUS_OWN.has(name));
}

describe('the monitoring files a host loads', () => {
  it('docs/monitoring/alerts.yml: every rule has an expression and a summary, over metrics the bot serves', () => {
    const rules = alertRules(read('docs/monitoring/alerts.yml'));
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const rule of rules) {
      expect({ alert: rule.alert, hasExpr: rule.expr !== '', hasSummary: rule.hasSummary }).toEqual({
        alert: rule.alert,
        hasExpr: true,
        hasSummary: true,
      });
    }
    expect(unknownIn(rules.flatMap((rule) => metricsIn(rule.expr)))).toEqual([]);
    // What the issue asks a host be able to alert on has a rule.
    const named = new Set(rules.flatMap((rule) => metricsIn(rule.expr)));
    for (const metric of [
      'bridge_oldest_waiting_seconds',
      'bridge_delivery_post_seconds_bucket',
      'bridge_record_lag_seconds',
      'bridge_gateway_shard_ready',
      'bridge_set_aside_items',
    ]) {
      expect(named, metric).toContain(metric);
    }
  });

  it('docs/monitoring/dashboard.json: a Grafana dashboard whose every query reads metrics the bot serves', () => {
    const dashboard = JSON.parse(read('docs/monitoring/dashboard.json')) as { title?: string; panels?: unknown[] };
    expect(dashboard.title).toBe('service-discord-bridge');
    const expressions = dashboardExpressions(dashboard);
    expect(expressions.length).toBeGreaterThanOrEqual(10);
    expect(unknownIn(expressions.flatMap(metricsIn))).toEqual([]);
    expect(new Set(expressions.flatMap(metricsIn))).toContain('bridge_build_info');
  });

  it("docs/hosting.md's Metrics section names only metrics the bot serves, and lists every one it serves", () => {
    const section = hostingMetricsSection();
    expect(unknownIn(metricsIn(section))).toEqual([]);
    const ours = [...served.keys()].filter((name) => name.startsWith('bridge_'));
    for (const name of ours) expect(section, `hosting.md's table lists ${name}`).toContain(`| \`${name}\``);
  });
});
