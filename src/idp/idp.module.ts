import {
  DynamicModule,
  Inject,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import Database from 'better-sqlite3';
import * as path from 'node:path';
import { AppLogger } from '../logging/app-logger';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { SessionStore } from '../store/session-store';
import { describeChanges, privateDatabase } from '../store/private-files';
import { AccountStore } from './accounts/account-store';
import { CodeLimits } from './accounts/code-limits';
import { FactorStore } from './accounts/factor-store';
import { OneTimeCodes } from './accounts/one-time-codes';
import { seedDemoUsers } from './demo-users';
import { StartupTasks } from '../lifecycle/startup-tasks';
import { FlowRecords } from './interaction/flow-records';
import { InteractionController } from './interaction/interaction.controller';
import { InteractionService } from './interaction/interaction.service';
import { AccountSignOut, SigninSteps } from './interaction/signin-steps';
import { MESSAGE_SENDER, MessageSender } from './outbox/message-sender';
import { OutboxSender } from './outbox/outbox-sender';
import { OutboxController } from './outbox/outbox.controller';
import { EmbeddedIdp } from './provider/embedded-idp';
import { IDP_STATE_STORE, createIdpStateStore } from './provider/idp-state-store';
import { providerPages } from './provider/provider-pages';
import { PutOffSteps } from './provider/put-off-steps';
import { PageRenderer } from '../render/page-renderer';

export const IDP_DATABASE = Symbol('IDP_DATABASE');

/**
 * The IdP's own SQLite file: its user directory (accounts, factors, the one-time codes sent to them
 * and the demo outbox), as docs/design.md has it. What the provider issues per sign-in (sessions,
 * interactions, codes, grants, tokens, flow progress) and its keys live in its state store
 * (idp-state-store.ts: Redis when several instances run).
 */
function openDatabase(config: AppConfig): Database.Database {
  const file = path.join(config.dataDir, 'idp.sqlite');
  // docs/security.md, secrets at rest: accounts and their factors are nobody else's to read (0700
  // folder, 0600 files).
  const changes = privateDatabase(file);
  if (changes.length > 0)
    new Logger(IdpModule.name).warn(
      `the IdP's database: made private (0700 folder, 0600 files): ${describeChanges(changes)}`,
    );
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Issue 7 moved the provider's artefacts, flow progress and keys to the IdP's state store
  // (idp-state-store.ts); their old tables would only mislead whoever opens the file.
  db.exec(`DROP TABLE IF EXISTS oidc_models; DROP TABLE IF EXISTS idp_flows;
    DROP TABLE IF EXISTS idp_signing_keys; DROP TABLE IF EXISTS idp_secrets;`);
  return db;
}

function migrated<T extends { migrate(): void }>(store: T): T {
  store.migrate();
  return store;
}

/**
 * A password reset signs the account out everywhere through the IdP itself (EmbeddedIdp.
 * endEverySessionOf: its sessions and grants, then OIDC Back-Channel Logout to this service), and
 * the outcome is logged: a relying party that could not be told is a warning, not a failed reset.
 */
function accountSignOut(idp: EmbeddedIdp, logger: AppLogger): AccountSignOut {
  return {
    async everywhere(accountId) {
      const { sessions, grants, notified, failed } = await idp.endEverySessionOf(accountId);
      logger.info(
        { event: 'account-signed-out', reason: 'password-reset', sessions, grants, notified },
        'every session of the account ended',
      );
      for (const { clientId, error } of failed)
        logger.warn(
          { event: 'account-signed-out', clientId, err: error },
          'back-channel logout not delivered',
        );
    },
  };
}

/**
 * The embedded identity provider (issue 3). Imported only when IDP_MODE=embedded, which the
 * configuration allows only in local and dev; the outbox is therefore never mounted in qa or prod.
 */
@Module({})
export class IdpModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(IDP_DATABASE) private readonly db: Database.Database,
    @Inject(IDP_STATE_STORE) private readonly state: SessionStore,
    private readonly accounts: AccountStore,
    private readonly factors: FactorStore,
    private readonly logger: AppLogger,
    private readonly startup: StartupTasks,
    private readonly idp: EmbeddedIdp,
  ) {
    this.logger.setContext(IdpModule.name);
  }

  static forRoot(): DynamicModule {
    return {
      module: IdpModule,
      controllers: [InteractionController, OutboxController],
      providers: [
        { provide: IDP_DATABASE, inject: [APP_CONFIG], useFactory: openDatabase },
        { provide: IDP_STATE_STORE, inject: [APP_CONFIG], useFactory: createIdpStateStore },
        {
          provide: AccountStore,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => migrated(new AccountStore(db)),
        },
        {
          provide: FactorStore,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => migrated(new FactorStore(db)),
        },
        {
          provide: OneTimeCodes,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => migrated(new OneTimeCodes(db)),
        },
        {
          provide: CodeLimits,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => migrated(new CodeLimits(db)),
        },
        {
          provide: OutboxSender,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => migrated(new OutboxSender(db)),
        },
        { provide: MESSAGE_SENDER, useExisting: OutboxSender },
        {
          provide: FlowRecords,
          inject: [IDP_STATE_STORE],
          useFactory: (store: SessionStore) => new FlowRecords(store),
        },
        {
          provide: PutOffSteps,
          inject: [IDP_STATE_STORE],
          useFactory: (store: SessionStore) => new PutOffSteps(store),
        },
        {
          provide: SigninSteps,
          inject: [
            AccountStore,
            FactorStore,
            OneTimeCodes,
            MESSAGE_SENDER,
            CodeLimits,
            EmbeddedIdp,
            AppLogger,
          ],
          useFactory: (
            accounts: AccountStore,
            factors: FactorStore,
            codes: OneTimeCodes,
            sender: MessageSender,
            limits: CodeLimits,
            idp: EmbeddedIdp,
            logger: AppLogger,
          ) => {
            logger.setContext('SigninSteps');
            return new SigninSteps({
              accounts,
              factors,
              codes,
              sender,
              limits,
              signOut: accountSignOut(idp, logger),
            });
          },
        },
        {
          provide: EmbeddedIdp,
          inject: [APP_CONFIG, IDP_STATE_STORE, AccountStore, FactorStore, AppLogger, PageRenderer],
          useFactory: (
            config: AppConfig,
            store: SessionStore,
            accounts: AccountStore,
            factors: FactorStore,
            logger: AppLogger,
            pages: PageRenderer,
          ) => {
            logger.setContext('EmbeddedIdp');
            // The account as the tokens and userinfo describe it, with its verified second factors
            // (issue 16 item 4: the landing lists them, learnt through OIDC like any issuer's claims).
            const lookup = {
              findById: async (id: string) => {
                const account = await accounts.findById(id);
                if (!account) return undefined;
                const verified = await factors.listVerified(id);
                return { ...account, factors: [...new Set(verified.map((f) => f.type))] };
              },
            };
            // Logged like the service's own failures: once, at error level, with the correlation id
            // the page shows, and what failed (an outage of its state store says so).
            return EmbeddedIdp.create(config, store, lookup, providerPages(pages), (ctx, error) =>
              logger.error(
                { err: error, correlationId: ctx.req.id, path: ctx.path },
                `embedded IdP request failed: ${error.message}`,
              ),
            );
          },
        },
        InteractionService,
      ],
      exports: [EmbeddedIdp, AccountStore, OutboxSender, IDP_STATE_STORE],
    };
  }

  /**
   * The demo users are seeded after the listener is up (issue 18 item 4): hashing their passwords
   * (scrypt at the production parameters) is most of a first start, and /readyz says 503 until it is
   * done (StartupTasks), so nothing signs in before they exist. So is the provider itself, whose
   * build (a failure included) readiness reports as `embeddedIdp`.
   */
  onModuleInit(): void {
    // oidc-provider and its keys are built once the listener is up (EmbeddedIdp.provider).
    // Retried by readiness after a failure: its state store may answer later (Redis down at start).
    this.startup.run(
      'embeddedIdp',
      this.idp.built.then(() => this.idp.provider()),
      () => this.idp.provider(),
    );
    this.startup.run(
      'demoUsers',
      seedDemoUsers(this.accounts, this.factors).then((created) => {
        if (created > 0) this.logger.info({ created }, 'seeded demo users');
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.db.open) this.db.close();
    await this.state.close();
  }
}
