import { DynamicModule, Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PinoLogger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AccountStore } from './accounts/account-store';
import { FactorStore } from './accounts/factor-store';
import { OneTimeCodes } from './accounts/one-time-codes';
import { seedDemoUsers } from './demo-users';
import { FlowRecords } from './interaction/flow-records';
import { InteractionController } from './interaction/interaction.controller';
import { InteractionService } from './interaction/interaction.service';
import { SigninSteps } from './interaction/signin-steps';
import { MESSAGE_SENDER, MessageSender } from './outbox/message-sender';
import { OutboxSender } from './outbox/outbox';
import { OutboxController } from './outbox/outbox.controller';
import { EmbeddedIdp } from './provider/embedded-idp';
import { PROVIDER_PAGES } from './provider/provider-pages';

export const IDP_DATABASE = Symbol('IDP_DATABASE');

/** The IdP's own SQLite file: accounts, factors, codes, outbox, provider artefacts and keys. */
function openDatabase(config: AppConfig): Database.Database {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = new Database(path.join(config.dataDir, 'idp.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

function migrated<T extends { migrate(): void }>(store: T): T {
  store.migrate();
  return store;
}

/**
 * The embedded identity provider (issue 3). Imported only when IDP_MODE=embedded, which the
 * configuration allows only in local and dev; the outbox is therefore never mounted in qa or prod.
 */
@Module({})
export class IdpModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(IDP_DATABASE) private readonly db: Database.Database,
    private readonly accounts: AccountStore,
    private readonly factors: FactorStore,
    private readonly idp: EmbeddedIdp,
    private readonly logger: PinoLogger,
  ) {}

  static forRoot(): DynamicModule {
    return {
      module: IdpModule,
      controllers: [InteractionController, OutboxController],
      providers: [
        { provide: IDP_DATABASE, inject: [APP_CONFIG], useFactory: openDatabase },
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
          provide: OutboxSender,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => migrated(new OutboxSender(db)),
        },
        { provide: MESSAGE_SENDER, useExisting: OutboxSender },
        {
          provide: FlowRecords,
          inject: [IDP_DATABASE],
          useFactory: (db: Database.Database) => new FlowRecords(db),
        },
        {
          provide: SigninSteps,
          inject: [AccountStore, FactorStore, OneTimeCodes, MESSAGE_SENDER],
          useFactory: (
            accounts: AccountStore,
            factors: FactorStore,
            codes: OneTimeCodes,
            sender: MessageSender,
          ) => new SigninSteps({ accounts, factors, codes, sender }),
        },
        {
          provide: EmbeddedIdp,
          inject: [APP_CONFIG, IDP_DATABASE, AccountStore],
          useFactory: (config: AppConfig, db: Database.Database, accounts: AccountStore) =>
            EmbeddedIdp.create(config, db, accounts, PROVIDER_PAGES),
        },
        InteractionService,
      ],
      exports: [EmbeddedIdp, AccountStore, OutboxSender],
    };
  }

  async onModuleInit(): Promise<void> {
    const created = await seedDemoUsers(this.accounts, this.factors);
    if (created > 0) this.logger.info({ created }, 'seeded demo users');
  }

  onApplicationShutdown(): void {
    this.idp.close();
    if (this.db.open) this.db.close();
  }
}
