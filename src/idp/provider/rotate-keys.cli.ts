import { loadConfig } from '../../config/load-config';
import { createIdpStateStore } from './idp-state-store';
import { SigningKeys } from './signing-keys';

/**
 * `npm run idp:rotate-keys`: promotes the published `next` signing key of the embedded IdP and
 * publishes a new `next`, in the IdP's state store (idp-state-store.ts), so every instance sees the
 * same ring. Running instances pick it up when they restart; tokens signed with the
 * old key stay verifiable while it is published as retired (signing-keys.ts).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.idp.mode !== 'embedded')
    throw new Error('IDP_MODE is external: keys are managed by that IdP');
  const store = await createIdpStateStore(config);
  try {
    const keys = new SigningKeys(store);
    await keys.load();
    await keys.rotate();
    const kids = (await keys.jwks()).keys.map((k) => k.kid);
    process.stdout.write(
      `rotated: signing with ${kids[0]}; published ${kids.join(', ')}\nRestart the service to sign with the new key.\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
