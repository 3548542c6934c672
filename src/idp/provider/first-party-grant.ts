import type Provider from 'oidc-provider';
import { RESOURCE_SCOPES, SUPPORTED_SCOPES } from './okta-shape';

type GrantModel = Provider['Grant'];
type Grant = InstanceType<GrantModel>;

/**
 * The grant of one authorization by a first-party client, made the Okta way: no consent screen,
 * every scope the IdP offers and the API's resource scopes. Built here only, for the two places
 * that need one: the consent prompt an interaction answers, and oidc-provider's loadExistingGrant
 * for an authorization that needs no interaction. `existing` is the grant the authorization already
 * has, if any; without one a new grant is made for the account and client.
 */
export async function saveFirstPartyGrant(
  models: { readonly Grant: GrantModel },
  owner: { readonly accountId: string; readonly clientId: string },
  audience: string,
  existing?: Grant,
): Promise<Grant> {
  const grant = existing ?? new models.Grant(owner);
  grant.addOIDCScope(SUPPORTED_SCOPES.join(' '));
  grant.addResourceScope(audience, RESOURCE_SCOPES);
  await grant.save();
  return grant;
}
