/**
 * Integration and browser tests start the real app (its embedded IdP, SQLite files, the demo users'
 * scrypt hashes) in their hooks: seconds on a busy 2-core machine, where jest's 5 s default failed
 * hooks that assert nothing about time (jest.config.js loads this for those two projects; unit specs
 * keep the default). Tests that need longer still say so themselves.
 */
jest.setTimeout(30_000);
