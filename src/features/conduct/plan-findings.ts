import { byTime, chainHits, hitKey, type Hit } from './hits.js';
import type { FindingsPlan } from './store/conduct-store.js';

export type { FindingsPlan } from './store/conduct-store.js';

/** A finding of one rule and subject as stored: its id, when it was found, and its cases. */
export interface StoredFinding {
  id: string;
  openedAt: number;
  hits: readonly Hit[];
}

/**
 * What a judgement looked at again: the hits of a time range (a burst's, both ends included), or of some cases
 * (those a rule judges one by one). Stored hits in it that the judgement did not find again are dropped.
 */
export type Scope = { from: number; to: number } | { keys: ReadonlySet<string> };

/**
 * The findings of one rule and subject after a judgement: the stored ones near the scope (every finding within
 * `gapMs` of it, with all its cases), less the hits in the scope not found again, plus those found, grouped into
 * chains of cases no more than `gapMs` apart. A chain is kept by the earliest-found finding that holds any of its
 * cases (so its alert stays the one the staff know); one that holds none is new, its id made from its first case
 * by `newId` (two processes finding it at once make one; `attempt` counts up past an id a stored finding has). This is what keeps the findings the same whatever order
 * the deliveries came in: findings are the chains of the hits, and hits are what the record says now.
 */
export function planFindings(
  stored: readonly StoredFinding[],
  scope: Scope,
  found: readonly Hit[],
  gapMs: number,
  newId: (first: Hit, attempt: number) => string,
): FindingsPlan {
  const inScope = (hit: Hit) =>
    'keys' in scope ? scope.keys.has(hitKey(hit)) : hit.at >= scope.from && hit.at <= scope.to;
  const holder = new Map<string, StoredFinding>();
  const hits = new Map<string, Hit>();
  for (const finding of stored) {
    for (const hit of finding.hits) {
      holder.set(hitKey(hit), finding);
      if (!inScope(hit)) hits.set(hitKey(hit), hit);
    }
  }
  for (const hit of found) hits.set(hitKey(hit), hit);
  const byAge = (a: StoredFinding, b: StoredFinding) => a.openedAt - b.openedAt || (a.id < b.id ? -1 : 1);

  const storedIds = new Set(stored.map((finding) => finding.id));
  const owners = new Set<string>();
  const freshId = (first: Hit) => {
    let attempt = 0;
    let id = newId(first, attempt);
    while (storedIds.has(id) || owners.has(id)) id = newId(first, (attempt += 1));
    return id;
  };
  const plan: FindingsPlan = { changed: [], merged: [], withdrawn: [] };
  const ownerOfHit = new Map<string, string>();
  for (const chain of chainHits([...hits.values()], gapMs)) {
    const candidates = [...new Set(chain.flatMap((hit) => holder.get(hitKey(hit)) ?? []))].sort(byAge);
    const owner = candidates.find((finding) => !owners.has(finding.id));
    const first = chain[0];
    if (!first) continue;
    const id = owner?.id ?? freshId(first);
    owners.add(id);
    for (const hit of chain) ownerOfHit.set(hitKey(hit), id);
    if (!owner || !sameHits(owner.hits, chain)) plan.changed.push({ id, isNew: !owner, hits: chain });
  }
  for (const finding of stored) {
    if (owners.has(finding.id)) continue;
    const into = finding.hits.map((hit) => ownerOfHit.get(hitKey(hit))).find((id) => id !== undefined);
    if (into === undefined) plan.withdrawn.push(finding.id);
    else plan.merged.push({ id: finding.id, into });
  }
  return plan;
}

function sameHits(a: readonly Hit[], b: readonly Hit[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = [...a].sort(byTime);
  return sorted.every((hit, index) => {
    const other = b[index];
    return (
      other !== undefined &&
      hitKey(hit) === hitKey(other) &&
      hit.at === other.at &&
      hit.type === other.type &&
      hit.targetName === other.targetName
    );
  });
}
