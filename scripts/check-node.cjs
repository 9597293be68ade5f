// The first thing every way of running the bot does: npm's preinstall, each npm script, and scripts/launch.js
// (npm start, the systemd unit, the container). On a Node that package.json's `engines` does not name, the bot's
// SQLite module (better-sqlite3 13) ends the process with a segmentation fault and no message of its own; this says
// instead, in one line, which Node is needed and how to get it, and exits 1.
// CommonJS with no dependency and nothing newer than Node 12 can run, on purpose: it must speak on any Node a host
// may have, and in a production install (no TypeScript, no tsx).
'use strict';

const fs = require('fs');
const path = require('path');

/** Where a host reads how to install Node (docs/hosting.md, "Getting Node"). */
const HOW_TO_GET_IT =
  'docs/hosting.md#getting-node: a package source for your distribution, nvm, or the official binaries';

/** `22.17.0` (or `v22.17.0`) as [22, 17, 0]; a pre-release suffix is ignored. */
function parseVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(text).trim());
  if (!match) throw new Error('not a version: ' + text);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** One comparator of a range (`^22.17.0`, `>=24`, `<25.0.0`, `24.1.0`) as a test of a parsed version. */
function comparator(text) {
  const match = /^(\^|>=|<=|>|<|=)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error('a range this check does not read: ' + text);
  const operator = match[1] || '=';
  const bound = [Number(match[2]), Number(match[3] || 0), Number(match[4] || 0)];
  if (operator === '^') {
    // Only majors above 0 appear in `engines.node`: ^22.17.0 is >=22.17.0 <23.0.0.
    return (version) => compare(version, bound) >= 0 && version[0] === bound[0];
  }
  return (version) => {
    const order = compare(version, bound);
    if (operator === '>=') return order >= 0;
    if (operator === '<=') return order <= 0;
    if (operator === '>') return order > 0;
    if (operator === '<') return order < 0;
    return order === 0;
  };
}

/**
 * True when `version` is in `range`, a semver range of the forms `engines.node` uses: alternatives joined by `||`,
 * each one or more comparators (`^22.17.0`, `>=22 <25`).
 */
function satisfies(version, range) {
  const parsed = parseVersion(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .map(comparator)
      .every((test) => test(parsed)),
  );
}

/** `^22.17.0 || ^24.0.0` in words, the newest first: `Node 24 (or 22.17 or a later 22)`. */
function describeRange(range) {
  const words = range
    .split('||')
    .map((alternative) => alternative.trim())
    .reverse()
    .map((alternative) => {
      const caret = /^\^(\d+)\.(\d+)\.\d+$/.exec(alternative);
      if (!caret) return alternative;
      return caret[2] === '0' ? caret[1] : caret[1] + '.' + caret[2] + ' or a later ' + caret[1];
    });
  return 'Node ' + words[0] + (words.length > 1 ? ' (or ' + words.slice(1).join(', or ') + ')' : '');
}

/** The newest major `range` names: what a host should install. */
function recommendedMajor(range) {
  const majors = range.match(/\d+(?=\.\d+\.\d+)/g) || [];
  return Math.max.apply(null, majors.map(Number));
}

/** The one line said on a Node outside `range`. */
function refusal(range, version, execPath) {
  return (
    'service-discord-bridge needs ' +
    describeRange(range) +
    '; this is Node ' +
    version +
    ' (' +
    execPath +
    '). Install Node ' +
    recommendedMajor(range) +
    ' (' +
    HOW_TO_GET_IT +
    '), then run this again.'
  );
}

/** package.json's `engines.node`, beside this script's folder. */
function requiredRange() {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  return manifest.engines.node;
}

/** Says the one line and exits 1 when this Node is not one `engines` names; nothing otherwise. */
function checkNode() {
  const range = requiredRange();
  if (satisfies(process.versions.node, range)) return;
  process.stderr.write(refusal(range, process.version, process.execPath) + '\n');
  process.exit(1);
}

module.exports = { satisfies, describeRange, refusal, requiredRange };

// Run (`node scripts/check-node.cjs`) or imported first by scripts/launch.js: either way, the check runs now.
checkNode();
