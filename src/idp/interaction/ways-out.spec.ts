import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { STEP_VIEWS } from '../../../views/signin/step-views';
import {
  FLOW_STATES,
  type FlowContext,
  type FactorType,
  stateKey,
  stepKey,
  transition,
} from '../flow/signin-flow';

/**
 * A way out of every step: the table of docs/embedded-idp.md ("A way out of every step") names
 * each page of STEP_VIEWS, says "None" (and why) exactly where the page offers no back, skip or
 * recovery, and names every step the page's back leads to, for an account with one second factor
 * and for one with several.
 */
const DOC = resolve(__dirname, '../../../docs/embedded-idp.md');
const WAYS_OUT = new Set(['back', 'skip', 'forgot']);

function documentedWaysOut(): Map<string, { way: string; leadsTo: string }> {
  const doc = readFileSync(DOC, 'utf8');
  const table = /<!-- ways-out:start -->([\s\S]*?)<!-- ways-out:end -->/.exec(doc)?.[1] ?? '';
  const rows = table
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !/^\|\s*(Step|-)/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  return new Map(
    rows.map(([, step, way, leadsTo]) => [step ?? '', { way: way ?? '', leadsTo: leadsTo ?? '' }]),
  );
}

const context = (factors: FactorType[]): FlowContext => ({
  factors,
  mfaSetupRequired: false,
  mfaSetupSkippable: true,
  surveyPending: false,
  isNewAccount: false,
});

describe('a way out of every sign-in step (docs/embedded-idp.md)', () => {
  const documented = documentedWaysOut();

  it('the table names every step page, and only those', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(STEP_VIEWS).sort());
  });

  it.each(Object.entries(STEP_VIEWS))('%s', (key, view) => {
    const row = documented.get(key);
    const offered = view.actions.filter((action) => WAYS_OUT.has(action.action));
    expect({ key, none: row?.way.startsWith('None') }).toEqual({ key, none: offered.length === 0 });
    if (!view.actions.some((action) => action.action === 'back')) return;
    const states = FLOW_STATES.filter((state) => stepKey(state) === key);
    for (const state of states) {
      for (const factors of [['totp'], ['totp', 'email', 'sms']] satisfies FactorType[][]) {
        const back = transition(state, { type: 'BACK' }, context(factors));
        expect({ key, back: back.ok }).toEqual({ key, back: true });
        if (back.ok) expect(row?.leadsTo).toContain(stateKey(back.state));
      }
    }
  });
});
