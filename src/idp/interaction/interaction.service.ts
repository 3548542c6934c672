import { Injectable } from '@nestjs/common';
import { PageRenderer } from '../../render/page-renderer';
import type { FramedPage } from '../../render/render-page';
import { Brand, DEFAULT_BRAND } from '../../shared/brand';
import { AccountStore } from '../accounts/account-store';
import { FactorStore } from '../accounts/factor-store';
import {
  FlowContext,
  FlowEvent,
  FlowState,
  INITIAL_STATE,
  afterAuthentication,
  parseStateKey,
  stateKey,
  stepKey,
  transition,
} from '../flow/signin-flow';
import { PENDING_STEP_PARAM, PendingStep, parsePendingStep } from '../../shared/pending-step';
import { SIGNED_OUT_PARAM } from '../../shared/signed-out-notice';
import { PUT_OFF_RESULT, PutOffStep, PutOffSteps, putOffStepsIn } from '../provider/put-off-steps';
import {
  EmbeddedIdp,
  InteractionDetails,
  ProviderInteraction,
  SILENT_PARAM,
} from '../provider/embedded-idp';
import { interactionPath } from '../provider/okta-shape';
import { saveFirstPartyGrant } from '../provider/first-party-grant';
import { FlowData, FlowRecords, csrfMatches, newCsrfToken } from './flow-records';
import type { PageContext } from './page-context';
import { journeyBrand, journeyDestination } from '../provider/journey-brand';
import { SigninSteps } from './signin-steps';
import { STEP_VIEWS, offeredActions } from '../../../views/signin/step-views';
import { SIGNIN_STEP_SCRIPT } from '../../../views/signin/signin-step-script';
import { stepPage } from './step-page';
import { StepErrors } from './step-outcome';

export interface RenderedPage extends FramedPage {
  readonly kind: 'page';
  readonly status: number;
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

/** The steps put off by an event, if it puts one off: "Not now" on PromptSetupMfa, Survey's "Skip". */
function putOffBy(event: FlowEvent): PutOffStep | undefined {
  if (event.type === 'SETUP_SKIPPED') return 'setupMfa';
  if (event.type === 'SURVEY_SKIPPED') return 'survey';
  return undefined;
}

/**
 * A step's page context, the brand its authorization request named (journeyBrand) and the site
 * the sign-in leads to (journeyDestination).
 */
interface StepContext extends PageContext {
  readonly brand: Brand;
  readonly destination: string | undefined;
}

function stepContext(page: (uiLocales?: string) => PageContext, details: Details): StepContext {
  return {
    ...page(uiLocales(details)),
    brand: journeyBrand(details.params),
    destination: journeyDestination(details.params),
  };
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
    private readonly putOff: PutOffSteps,
  ) {}

  async show(
    uid: string,
    interaction: ProviderInteraction,
    page: (uiLocales?: string) => PageContext,
  ): Promise<InteractionOutcome> {
    const details = await this.details(uid, interaction);
    if (!details) return this.expired(uid, page());
    const ctx = stepContext(page, details);
    const data = (await this.records.get(uid)) ?? (await this.begin(uid, details, interaction));
    if (data === undefined) return ANSWERED;
    const state = parseStateKey(data.state);
    if (!state) return this.expired(uid, ctx, ctx.brand);
    // A notice is shown once.
    if (data.notice)
      await this.records.save(uid, { ...data, notice: undefined }, details.exp * 1000);
    return { kind: 'page', status: 200, ...(await this.render(uid, state, data, ctx)) };
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
        ...(await this.render(uid, state, data, ctx, { fields: {}, form: { code: 'csrf' } })),
      };
    }
    const action = typeof form.action === 'string' ? form.action : 'submit';
    if (!offersAction(stepKey(state), action, data.factor)) {
      return {
        kind: 'page',
        status: 400,
        ...(await this.render(uid, state, data, ctx, {
          fields: {},
          form: { code: 'notAllowed' },
        })),
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
        ...(await this.render(uid, state, data, ctx, outcome.errors, outcome.values)),
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
        ...(await this.render(uid, state, data, ctx, {
          fields: {},
          form: { code: 'notAllowed' },
        })),
      };
    }
    const putOff = putOffBy(outcome.event);
    const next: FlowData = startsOver(moved.state)
      ? startOver(patched)
      : putOff
        ? { ...patched, putOff: [...new Set([...(patched.putOff ?? []), putOff])] }
        : patched;
    if (moved.state.step === 'Done' && next.accountId) {
      await this.records.delete(uid);
      if (next.signedIn) {
        // A known collector's pending steps are done: what they put off belongs to their IdP
        // session, and the authorization request goes on with the grant (no new login).
        await this.putOff.add(details.session?.uid, next.putOff ?? []);
        return (await this.grantConsent(details, interaction))
          ? ANSWERED
          : this.expired(uid, ctx, ctx.brand);
      }
      await interaction.finish({
        login: { accountId: next.accountId, amr: next.factor ? ['pwd', 'mfa'] : ['pwd'] },
        [PUT_OFF_RESULT]: next.putOff ?? [],
      });
      return ANSWERED;
    }
    // A new token per step: the form of the step just left can no longer act on the next one.
    await this.records.save(
      uid,
      { ...next, state: stateKey(moved.state), csrf: newCsrfToken() },
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
    const page = this.pages.message(ctx.locale, brand, {
      title: t('common.errorPage.header'),
      documentTitle: t('common.errorPage.title'),
      message: t('common.signin.errors.interactionExpired'),
      alert: true,
      currentPath: interactionPath(uid),
      theme: ctx.theme,
    });
    return { kind: 'page', status: 400, ...page };
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
   * The start of an interaction: its flow record, or undefined when the provider has been answered
   * without a form.
   *
   * - The consent prompt of a collector the IdP knows (a live IdP session) is granted the Okta way,
   *   with no screen, for our first-party clients. But when this service asked for the collector's
   *   pending steps (`pending_step`, src/shared/pending-step.ts) and the collector did not just sign
   *   in within this same request (whose sign-in has offered them already), the flow begins at the
   *   first pending step instead: no email, no password (issue 14 item 5). With none pending, or only
   *   ones put off in this IdP session, the request goes straight through.
   * - A silent request (prompt=none, see keepOfflineAccess) without a session answers login_required.
   * - Otherwise the sign-in starts at EmailCheck; a requested welcome (a new or migrated account, §4
   *   After login step 3) comes after the authentication.
   */
  private async begin(
    uid: string,
    details: Details,
    interaction: ProviderInteraction,
  ): Promise<FlowData | undefined> {
    const expiresAt = details.exp * 1000;
    const requested = parsePendingStep(details.params[PENDING_STEP_PARAM]);
    const accountId = details.session?.accountId;
    if (details.prompt.name === 'consent' && accountId) {
      const signedInNow = details.lastSubmission?.login !== undefined;
      if (signedInNow) {
        await this.putOff.add(
          details.session?.uid,
          putOffStepsIn(details.lastSubmission?.[PUT_OFF_RESULT]),
        );
      } else if (requested) {
        const seed = await this.pendingSeed(accountId, details.session?.uid, requested);
        const first = seed ? afterAuthentication(await this.context(seed)) : undefined;
        if (seed && first && first.step !== 'Done')
          return this.records.create(uid, stateKey(first), expiresAt, seed);
      }
      if (await this.grantConsent(details, interaction)) return undefined;
    }
    if (details.prompt.name === 'login' && details.params[SILENT_PARAM] === 'true') {
      await interaction.finish({
        error: 'login_required',
        error_description: 'End-User authentication is required',
      });
      return undefined;
    }
    return this.records.create(uid, 'EmailCheck', expiresAt, {
      ...(requested === 'welcome' ? { isNewAccount: true } : {}),
      // The fixed sentence only: the marker carries no text (signed-out-notice.ts).
      ...(details.params[SIGNED_OUT_PARAM] === 'true' ? { notice: { key: 'signedOut' } } : {}),
    });
  }

  /** What the flow of a known collector's pending steps starts from; undefined without the account. */
  private async pendingSeed(
    accountId: string,
    sessionUid: string | undefined,
    requested: PendingStep,
  ): Promise<Omit<FlowData, 'state' | 'csrf'> | undefined> {
    const account = await this.accounts.findById(accountId);
    if (!account) return undefined;
    const putOff = await this.putOff.read(sessionUid);
    return {
      accountId: account.id,
      email: account.email,
      signedIn: true,
      ...(requested === 'welcome' ? { isNewAccount: true } : {}),
      ...(putOff.length > 0 ? { putOff } : {}),
    };
  }

  /** Consent for our first-party clients, granted the Okta way (no screen). */
  private async grantConsent(details: Details, interaction: ProviderInteraction): Promise<boolean> {
    const accountId = details.session?.accountId;
    if (details.prompt.name !== 'consent' || !accountId) return false;
    const provider = await this.idp.provider();
    const clientId = String(details.params.client_id);
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    // A grant the interaction names but the store no longer has: the authorization is over.
    if (details.grantId && !existing) return false;
    const grant = await saveFirstPartyGrant(
      provider,
      { accountId, clientId },
      this.idp.audience,
      existing,
    );
    await interaction.finish({ consent: { grantId: grant.jti } }, true);
    return true;
  }

  /**
   * The account's side of the flow. An account still migrating (§3 isMigrating) has not been through
   * WelcomeCollectors and EnterNameInfo, which complete its migration (issue 14 item 10), so it
   * counts as new here. Steps put off in this sign-in are not pending again in it.
   */
  private async context(
    data: Pick<FlowData, 'accountId' | 'isNewAccount' | 'putOff'>,
  ): Promise<FlowContext> {
    const account = data.accountId ? await this.accounts.findById(data.accountId) : undefined;
    const factors = account ? (await this.factors.listVerified(account.id)).map((f) => f.type) : [];
    const putOff = data.putOff ?? [];
    return {
      factors,
      mfaSetupRequired: (account?.mfaSetupRequired ?? false) && !putOff.includes('setupMfa'),
      mfaSetupSkippable: true,
      surveyPending: (account?.surveyPending ?? false) && !putOff.includes('survey'),
      isNewAccount: (data.isNewAccount ?? false) || (account?.isMigrating ?? false),
    };
  }

  private async render(
    uid: string,
    state: FlowState,
    data: FlowData,
    ctx: StepContext,
    errors?: StepErrors,
    values?: Record<string, string>,
  ): Promise<FramedPage> {
    const key = stepKey(state);
    const account = data.accountId ? await this.accounts.findById(data.accountId) : undefined;
    const verified =
      key === 'ChooseVerifyFactor' && account
        ? (await this.factors.listVerified(account.id)).map((f) => f.type)
        : undefined;
    const displayName = account?.givenName ?? undefined;
    // A known collector confirms the name the account has (a migrated account's, say), rather than
    // typing it from scratch.
    const names =
      key === 'EnterNameInfo' && !values && account
        ? { givenName: account.givenName ?? '', familyName: account.familyName ?? '' }
        : undefined;
    const frame = {
      ...this.pages.frame(ctx.brand, ctx.locale, interactionPath(uid)),
      theme: ctx.theme,
    };
    // Where "back" leads, as the flow will take it (from a second factor: the choice of factor or the
    // email, by how many the account has), so that its label says so.
    const back = transition(state, { type: 'BACK' }, await this.context(data));
    const page = stepPage({
      stepKey: key,
      data,
      frame,
      t: ctx.t,
      formAction: `${interactionPath(uid)}${ctx.langQuery}`,
      termsUrl: ctx.termsUrl,
      ...(errors ? { errors } : {}),
      ...(values ? { values } : names ? { values: names } : {}),
      ...(verified ? { options: { factor: verified } } : {}),
      ...(displayName ? { displayName } : {}),
      ...(back.ok ? { backTo: stateKey(back.state) } : {}),
      ...(ctx.destination ? { destination: ctx.destination } : {}),
    });
    return this.pages.framed(frame, page.title, page.body, SIGNIN_STEP_SCRIPT);
  }

  private nextStep(uid: string, ctx: PageContext): InteractionOutcome {
    return { kind: 'next-step', location: `${interactionPath(uid)}${ctx.langQuery}` };
  }
}

/** Back at the email step, the sign-in starts over ("Use a different email"). */
const startsOver = (state: FlowState): boolean => state.step === INITIAL_STATE.step;

/**
 * What a sign-in that starts over keeps: the address typed, to correct it. Nothing an earlier step
 * learned or was asked for about a collector reaches the next address: not the account, the
 * factor proved or being enrolled (it would name a second factor in a later sign-in's `amr`), a
 * sign-in already made, a welcome asked for, nor what was put off. What the account itself still
 * owes (an expired password, a migration's welcome) is asked for again at its next sign-in.
 */
function startOver({ state, csrf, email }: FlowData): FlowData {
  return { state, csrf, ...(email ? { email } : {}) };
}

/** Only the buttons the step's page shows may be pressed (an unknown action is not a submit). */
function offersAction(key: string, action: string, factor: FlowData['factor']): boolean {
  const view = STEP_VIEWS[key];
  return view ? offeredActions(view, factor).some((a) => a.action === action) : false;
}

function uiLocales(details: Details): string | undefined {
  return typeof details.params.ui_locales === 'string' ? details.params.ui_locales : undefined;
}
