import { Injectable } from '@nestjs/common';
import { PageRenderer } from '../../render/page-renderer';
import { Brand, DEFAULT_BRAND } from '../../shared/brand';
import { AccountStore } from '../accounts/account-store';
import { FactorStore } from '../accounts/factor-store';
import {
  FlowContext,
  FlowState,
  parseStateKey,
  stateKey,
  stepKey,
  transition,
} from '../flow/signin-flow';
import {
  EmbeddedIdp,
  InteractionDetails,
  ProviderInteraction,
  SILENT_PARAM,
} from '../provider/embedded-idp';
import {
  ACCESS_TOKEN_AUDIENCE,
  RESOURCE_SCOPES,
  SUPPORTED_SCOPES,
  interactionPath,
} from '../provider/okta-shape';
import { FlowData, FlowRecords, csrfMatches, newCsrfToken } from './flow-records';
import type { PageContext } from './interaction.controller';
import { journeyBrand } from '../provider/journey-brand';
import { SigninSteps } from './signin-steps';
import { STEP_VIEWS } from '../../../views/signin/step-views';
import { stepPage } from './step-page';
import { StepErrors } from './step-outcome';

export interface RenderedPage {
  readonly kind: 'page';
  readonly status: number;
  readonly html: string;
}

/**
 * What a step request comes to: a page to show, the next step (post/redirect/get, 303), or nothing
 * more to do because the provider has answered (the interaction finished).
 */
export type InteractionOutcome =
  | RenderedPage
  | { readonly kind: 'next-step'; readonly location: string }
  | { readonly kind: 'answered-by-provider' };

type Details = InteractionDetails;
const ANSWERED = { kind: 'answered-by-provider' } as const;

/** A step's page context and the brand its authorization request named (journeyBrand). */
interface StepContext extends PageContext {
  readonly brand: Brand;
}

function stepContext(page: (uiLocales?: string) => PageContext, details: Details): StepContext {
  return { ...page(uiLocales(details)), brand: journeyBrand(details.params) };
}

/**
 * Runs the sign-in flow for one oidc-provider interaction: loads the interaction and our flow record,
 * hands form posts to the step handlers, moves the flow machine, and tells the provider the result.
 */
@Injectable()
export class InteractionService {
  constructor(
    private readonly idp: EmbeddedIdp,
    private readonly records: FlowRecords,
    private readonly steps: SigninSteps,
    private readonly accounts: AccountStore,
    private readonly factors: FactorStore,
    private readonly pages: PageRenderer,
  ) {}

  async show(
    uid: string,
    interaction: ProviderInteraction,
    page: (uiLocales?: string) => PageContext,
  ): Promise<InteractionOutcome> {
    const details = await this.details(uid, interaction);
    if (!details) return this.expired(uid, page());
    const ctx = stepContext(page, details);
    if (await this.finishWithoutForm(details, interaction)) return ANSWERED;
    const data =
      (await this.records.get(uid)) ??
      (await this.records.create(uid, 'EmailCheck', details.exp * 1000));
    const state = parseStateKey(data.state);
    if (!state) return this.expired(uid, ctx, ctx.brand);
    // A notice is shown once.
    if (data.notice)
      await this.records.save(uid, { ...data, notice: undefined }, details.exp * 1000);
    return { kind: 'page', status: 200, html: await this.render(uid, state, data, ctx) };
  }

  async submit(
    uid: string,
    form: Record<string, unknown>,
    interaction: ProviderInteraction,
    page: (uiLocales?: string) => PageContext,
  ): Promise<InteractionOutcome> {
    const details = await this.details(uid, interaction);
    if (!details) return this.expired(uid, page());
    const ctx = stepContext(page, details);
    const data = await this.records.get(uid);
    const state = data ? parseStateKey(data.state) : undefined;
    if (!data || !state) return this.expired(uid, ctx, ctx.brand);
    // A post without this step's token (a cross-site form, a stale tab, a replayed or
    // double-submitted form of an earlier step) changes nothing.
    if (!csrfMatches(data.csrf, form.csrf)) {
      return {
        kind: 'page',
        status: 403,
        html: await this.render(uid, state, data, ctx, { fields: {}, form: { code: 'csrf' } }),
      };
    }
    const action = typeof form.action === 'string' ? form.action : 'submit';
    if (!offersAction(stepKey(state), action)) {
      return {
        kind: 'page',
        status: 400,
        html: await this.render(uid, state, data, ctx, {
          fields: {},
          form: { code: 'notAllowed' },
        }),
      };
    }
    const outcome = await this.steps.handle({
      stepKey: stepKey(state),
      action,
      form,
      data,
      locale: ctx.locale,
      t: ctx.t,
    });
    if (outcome.kind === 'invalid') {
      return {
        kind: 'page',
        status: 400,
        html: await this.render(uid, state, data, ctx, outcome.errors, outcome.values),
      };
    }
    const patched: FlowData = { ...data, ...outcome.patch };
    if (outcome.kind === 'stay') {
      await this.records.save(uid, patched, details.exp * 1000);
      return this.nextStep(uid, ctx);
    }
    const moved = transition(state, outcome.event, await this.context(patched));
    if (!moved.ok) {
      return {
        kind: 'page',
        status: 400,
        html: await this.render(uid, state, data, ctx, {
          fields: {},
          form: { code: 'notAllowed' },
        }),
      };
    }
    if (moved.state.step === 'Done' && patched.accountId) {
      await this.records.delete(uid);
      await interaction.finish({
        login: { accountId: patched.accountId, amr: patched.factor ? ['pwd', 'mfa'] : ['pwd'] },
      });
      return ANSWERED;
    }
    // A new token per step: the form of the step just left can no longer act on the next one.
    await this.records.save(
      uid,
      { ...patched, state: stateKey(moved.state), csrf: newCsrfToken() },
      details.exp * 1000,
    );
    return this.nextStep(uid, ctx);
  }

  /**
   * An expired or unknown interaction: say so (the brand's site starts sign-in again). Without the
   * interaction there is no authorization request, so no brand: collectors.
   */
  private expired(uid: string, ctx: PageContext, brand: Brand = DEFAULT_BRAND): RenderedPage {
    const { t } = ctx;
    const html = this.pages.message(ctx.locale, brand, {
      title: t('common.errorPage.header'),
      documentTitle: t('common.errorPage.title'),
      message: t('common.signin.errors.interactionExpired'),
      alert: true,
      currentPath: interactionPath(uid),
    });
    return { kind: 'page', status: 400, html };
  }

  private async details(
    uid: string,
    interaction: ProviderInteraction,
  ): Promise<Details | undefined> {
    try {
      const details = await interaction.details();
      return details.uid === uid ? details : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Steps that need no form: consent for our first-party clients is granted the Okta way (no screen),
   * and a silent request (prompt=none, see keepOfflineAccess) without a session answers login_required.
   */
  private async finishWithoutForm(
    details: Details,
    interaction: ProviderInteraction,
  ): Promise<boolean> {
    if (details.prompt.name === 'consent' && details.session?.accountId) {
      const { Grant } = this.idp.provider;
      const clientId = String(details.params.client_id);
      const grant = details.grantId
        ? await Grant.find(details.grantId)
        : new Grant({ accountId: details.session.accountId, clientId });
      if (!grant) return false;
      grant.addOIDCScope(SUPPORTED_SCOPES.join(' '));
      grant.addResourceScope(ACCESS_TOKEN_AUDIENCE, RESOURCE_SCOPES);
      const grantId = await grant.save();
      await interaction.finish({ consent: { grantId } }, true);
      return true;
    }
    if (details.prompt.name === 'login' && details.params[SILENT_PARAM] === 'true') {
      await interaction.finish({
        error: 'login_required',
        error_description: 'End-User authentication is required',
      });
      return true;
    }
    return false;
  }

  private async context(data: FlowData): Promise<FlowContext> {
    const account = data.accountId ? await this.accounts.findById(data.accountId) : undefined;
    const factors = account ? (await this.factors.listVerified(account.id)).map((f) => f.type) : [];
    return {
      factors,
      mfaSetupRequired: account?.mfaSetupRequired ?? false,
      mfaSetupSkippable: true,
      surveyPending: account?.surveyPending ?? false,
      isNewAccount: data.isNewAccount ?? false,
    };
  }

  private async render(
    uid: string,
    state: FlowState,
    data: FlowData,
    ctx: StepContext,
    errors?: StepErrors,
    values?: Record<string, string>,
  ): Promise<string> {
    const key = stepKey(state);
    const account = data.accountId ? await this.accounts.findById(data.accountId) : undefined;
    const verified =
      key === 'ChooseVerifyFactor' && account
        ? (await this.factors.listVerified(account.id)).map((f) => f.type)
        : undefined;
    const displayName = account?.givenName ?? undefined;
    const frame = this.pages.frame(ctx.brand, ctx.locale, interactionPath(uid));
    const page = stepPage({
      stepKey: key,
      data,
      frame,
      t: ctx.t,
      formAction: `${interactionPath(uid)}${ctx.langQuery}`,
      termsUrl: ctx.termsUrl,
      ...(errors ? { errors } : {}),
      ...(values ? { values } : {}),
      ...(verified ? { options: { factor: verified } } : {}),
      ...(displayName ? { displayName } : {}),
    });
    return this.pages.framed(frame, page.title, page.body);
  }

  private nextStep(uid: string, ctx: PageContext): InteractionOutcome {
    return { kind: 'next-step', location: `${interactionPath(uid)}${ctx.langQuery}` };
  }
}

/** Only the buttons the step's page shows may be pressed (an unknown action is not a submit). */
function offersAction(key: string, action: string): boolean {
  return STEP_VIEWS[key]?.actions.some((a) => a.action === action) ?? false;
}

function uiLocales(details: Details): string | undefined {
  return typeof details.params.ui_locales === 'string' ? details.params.ui_locales : undefined;
}
