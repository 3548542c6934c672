/* eslint-disable no-console -- this file exists to filter one console notice */
// oidc-provider announces at load time that it prefers Node 22; on Node 20.19+ it works (docs/design.md "Stack notes").
// That single notice is dropped so test output shows only what the tests print.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (
    typeof args[0] === 'string' &&
    args[0].startsWith('oidc-provider WARNING: Unsupported runtime')
  )
    return;
  warn(...args);
};
