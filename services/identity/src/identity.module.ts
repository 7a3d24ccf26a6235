import type { DynamicModule } from '@nestjs/common';
import type { ServiceResources } from '@portico/platform';
import { AccessHandler } from './access/access.handler.js';
import { AccessService } from './access/access.service.js';
import { CompaniesHandler } from './companies/companies.handler.js';
import { CompaniesRepository } from './companies/companies.repository.js';
import { CompaniesService } from './companies/companies.service.js';
import type { IdentityConfig } from './config.js';
import { FirmsHandler } from './firms/firms.handler.js';
import { FirmsRepository } from './firms/firms.repository.js';
import { FirmsService } from './firms/firms.service.js';
import { PreferencesCache } from './firms/preferences.cache.js';
import type { KeyRing } from './keys/signing-keys.js';
import type { IdentitySchema } from './schema.js';
import { OutboundMessages } from './sessions/outbound.js';
import { PasswordCheck } from './sessions/password-check.js';
import { RateLimiter } from './sessions/rate-limiter.js';
import { RetentionJob } from './sessions/retention.job.js';
import { SecretsRepository } from './sessions/secrets.repository.js';
import { SessionTokensService } from './sessions/session-tokens.service.js';
import { SessionsHandler } from './sessions/sessions.handler.js';
import { SignInService } from './sessions/sign-in.service.js';
import { BUS, CONFIG, DB, KEYS, LOG } from './tokens.js';
import { AccountNotices } from './users/account-notices.js';
import { UsersHandler } from './users/users.handler.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';

export class IdentityModule {
  static create(
    resources: ServiceResources<IdentitySchema>,
    config: IdentityConfig,
    keys: KeyRing,
  ): DynamicModule {
    return {
      module: IdentityModule,
      controllers: [SessionsHandler, UsersHandler, CompaniesHandler, FirmsHandler, AccessHandler],
      providers: [
        { provide: DB, useValue: resources.database.db },
        { provide: BUS, useValue: resources.bus },
        { provide: LOG, useValue: resources.log },
        { provide: CONFIG, useValue: config },
        { provide: KEYS, useValue: keys },
        UsersRepository,
        FirmsRepository,
        PreferencesCache,
        CompaniesRepository,
        SecretsRepository,
        RateLimiter,
        OutboundMessages,
        SessionTokensService,
        RetentionJob,
        PasswordCheck,
        AccountNotices,
        SignInService,
        UsersService,
        CompaniesService,
        FirmsService,
        AccessService,
      ],
    };
  }
}
