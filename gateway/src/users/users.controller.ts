import { Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SetSignInMethodResponseSchema, UpdateProfileResponseSchema, UserSchema } from '@portico/proto';
import type { z } from 'zod';
import { Authenticated, OptionalAuth, Public } from '../auth/auth.decorators.js';
import { unauthenticated } from '../auth/auth.errors.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe, PostAction } from '../http/route.decorators.js';
import { ValidBody, ValidId } from '../validation/zod.pipe.js';
import { UsersClient } from './users.client.js';
import {
  confirmEmailBody,
  outOfOfficeBody,
  setSignInMethodBody,
  updateProfileBody,
} from './users.schemas.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(@Inject(UsersClient) private readonly users: UsersClient) {}

  @PostAction('set_sign_in_method')
  @OptionalAuth()
  @Describe(
    'Choose password, SMS or email sign-in (signed in, or with a grant_token)',
    SetSignInMethodResponseSchema,
  )
  setSignInMethod(
    @ValidBody(setSignInMethodBody) body: z.output<typeof setSignInMethodBody>,
    @CurrentCaller() caller: Caller,
  ) {
    if (!caller.actor && !body.grant_token) throw unauthenticated();
    return this.users.setSignInMethod(body, caller);
  }

  @PostAction('confirm_email')
  @Public()
  @Describe('Confirm a changed email address with the emailed token', UserSchema)
  confirmEmail(
    @ValidBody(confirmEmailBody) body: z.output<typeof confirmEmailBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.users.confirmEmail(body, caller);
  }

  @Get(':id')
  @Authenticated()
  @Describe('A user of the caller firm', UserSchema)
  getUser(@ValidId() id: string, @CurrentCaller() caller: Caller) {
    return this.users.getUser(id, caller);
  }

  @Patch(':id')
  @Authenticated()
  @Describe('Update a profile; a changed email is confirmed by email first', UpdateProfileResponseSchema)
  updateProfile(
    @ValidId() id: string,
    @ValidBody(updateProfileBody) body: z.output<typeof updateProfileBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.users.updateProfile(id, body, caller);
  }
}

/** PATCH /out_of_office/:userId (spec 1 section 7.2): the same save as the profile's, these two fields only. */
@ApiTags('users')
@Controller('out_of_office')
export class OutOfOfficeController {
  constructor(@Inject(UsersClient) private readonly users: UsersClient) {}

  @Patch(':id')
  @Authenticated()
  @Describe(
    "Turn an advisor's out of office on or off, with the message clients see",
    UpdateProfileResponseSchema,
  )
  setOutOfOffice(
    @ValidId() id: string,
    @ValidBody(outOfOfficeBody) body: z.output<typeof outOfOfficeBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.users.updateProfile(id, body, caller);
  }
}
