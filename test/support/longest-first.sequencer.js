// Jest's test order (jest.config.js testSequencer). Jest starts the files that took longest last time
// first, so that no worker is left alone with a long file at the end; with no timings yet (a clean
// clone, as in CI) it orders by file size. Size misleads here: a short browser spec that walks 19
// pages in 12 variants takes 90 s while a long unit spec takes one. So without timings, the browser
// tier goes first, then the integration tier, then the unit tier, each by size as before.
'use strict';
const Sequencer = require('@jest/test-sequencer').default;

/** Tier (the project's displayName) -> place in a run without timings. */
const TIER_ORDER = { browser: 0, integration: 1, unit: 2 };

function tierOf(test) {
  const name = test.context.config.displayName?.name;
  return TIER_ORDER[name] ?? TIER_ORDER.unit;
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration !== undefined)) return sorted;
    // Array.prototype.sort is stable: within a tier the size order stays.
    return sorted.sort((a, b) => tierOf(a) - tierOf(b));
  }
}

module.exports = LongestFirst;
