import { PENDING_STEPS, isShellPendingStep, parsePendingStep } from './pending-step';

describe('pending_step (issue 14 item 5)', () => {
  it.each(PENDING_STEPS)('%s is a pending step', (step) => {
    expect(parsePendingStep(step)).toBe(step);
  });

  it.each([undefined, '', 'login', 'Welcome', 'setup_mfa', ['survey'], 1, '__proto__'])(
    '%p is none',
    (value) => {
      expect(parsePendingStep(value)).toBeUndefined();
    },
  );

  it('the §2 shell reasons are the ones "never twice in a row" is about', () => {
    expect(PENDING_STEPS.filter(isShellPendingStep)).toEqual(['migrating', 'setup-mfa', 'survey']);
    expect(isShellPendingStep(undefined)).toBe(false);
  });
});
