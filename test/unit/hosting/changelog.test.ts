import { describe, expect, it } from 'vitest';

import { readProjectFile } from './read-container-files.js';

/**
 * CHANGELOG.md is what a host acts on before an upgrade: one section per version, newest first, in Keep a
 * Changelog's form, each beginning with what a host must do; the version package.json gives the bot (and /healthz,
 * /status, bridge_build_info show) is the newest section.
 */

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
/** Keep a Changelog's kinds of change, and ours first: what a host does. */
const SUBSECTIONS = ['Upgrading', 'Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

const changelog = readProjectFile('CHANGELOG.md');
const version = (JSON.parse(readProjectFile('package.json')) as { version: string }).version;

/** Each `## [x.y.z] - date` section: its version, date and `###` headings, in the file's order. */
function versionSections(): Array<{ heading: string; version: string; date: string; subsections: string[] }> {
  return changelog
    .split(/^(?=## )/m)
    .filter((part) => part.startsWith('## '))
    .map((part) => {
      const heading = part.split('\n')[0] ?? '';
      const match = /^## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})$/.exec(heading);
      return {
        heading,
        version: match?.[1] ?? '',
        date: match?.[2] ?? '',
        subsections: [...part.matchAll(/^### (.+)$/gm)].map((subsection) => subsection[1] ?? ''),
      };
    });
}

function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((text) => text.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x?.[i] ?? 0) !== (y?.[i] ?? 0)) return (x?.[i] ?? 0) - (y?.[i] ?? 0);
  return 0;
}

describe('CHANGELOG.md', () => {
  it("has package.json's version, a semantic one, as its newest section", () => {
    expect(version).toMatch(SEMVER);
    expect(versionSections()[0]?.version).toBe(version);
  });

  it('has one section per version, newest first, each dated and beginning with what a host does', () => {
    const sections = versionSections();
    expect(sections.length).toBeGreaterThanOrEqual(2);
    for (const section of sections) {
      expect(section.version, section.heading).toMatch(SEMVER);
      expect(Number.isNaN(Date.parse(section.date)), section.heading).toBe(false);
      expect(section.subsections[0], `${section.heading} begins with Upgrading`).toBe('Upgrading');
      for (const name of section.subsections) expect(SUBSECTIONS, `${section.heading}: ${name}`).toContain(name);
      expect(new Set(section.subsections).size, section.heading).toBe(section.subsections.length);
    }
    const versions = sections.map((section) => section.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions.toSorted((a, b) => compare(b, a))).toEqual(versions);
    const dates = sections.map((section) => section.date);
    expect(dates.toSorted().reverse()).toEqual(dates);
  });

  it("is where docs/hosting.md's upgrade sends a host, with the version the bot runs", () => {
    const hosting = readProjectFile('docs/hosting.md');
    const upgrading = hosting.slice(hosting.indexOf('\n## Upgrading\n'));
    expect(upgrading).toContain('[CHANGELOG.md](../CHANGELOG.md)');
    expect(upgrading).toContain("`/healthz`'s `version`");
    expect(upgrading).not.toMatch(/release notes/i);
  });
});
