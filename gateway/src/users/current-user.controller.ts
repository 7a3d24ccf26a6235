import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FirmSchema, UserSchema } from '@portico/proto';
import type { z } from 'zod';
import { Authenticated } from '../auth/auth.decorators.js';
import { setDefaultCompanyBody } from '../companies/companies.schemas.js';
import { FirmsClient } from '../firms/firms.client.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe, PostAction } from '../http/route.decorators.js';
import { ValidBody } from '../validation/zod.pipe.js';
import { UsersClient } from './users.client.js';

/** The signed-in user's own resources, at the top-level paths of the spec. */
@ApiTags('current user')
@Controller()
export class CurrentUserController {
  constructor(
    @Inject(UsersClient) private readonly users: UsersClient,
    @Inject(FirmsClient) private readonly firms: FirmsClient,
  ) {}

  @Get('current_user')
  @Authenticated()
  @Describe('The signed-in user', UserSchema)
  currentUser(@CurrentCaller() caller: Caller) {
    return this.users.currentUser(caller);
  }

  @Get('firms/current_user_firm')
  @Authenticated()
  @Describe(
    "The firm of the signed-in user, preferences included (to a client: its name, branding, time zone and the preferences a client's screens read)",
    FirmSchema,
  )
  currentFirm(@CurrentCaller() caller: Caller) {
    return this.firms.current(caller);
  }

  /** The path shells built before the spec's (spec 1 s.7.5, under /firms) still call. */
  @Get('current_user_firm')
  @Authenticated()
  @Describe(
    'The firm of the signed-in user, at its older path: see GET /firms/current_user_firm',
    FirmSchema,
    {
      deprecated: true,
    },
  )
  currentFirmAtOlderPath(@CurrentCaller() caller: Caller) {
    return this.firms.current(caller);
  }

  @PostAction('set_default_company')
  @Authenticated()
  @Describe('Choose the entity the client portal opens on', UserSchema)
  setDefaultCompany(
    @ValidBody(setDefaultCompanyBody) body: z.output<typeof setDefaultCompanyBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.users.setDefaultCompany(body, caller);
  }
}
