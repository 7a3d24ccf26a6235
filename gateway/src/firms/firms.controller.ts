import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FirmSchema, FirmThemeSchema } from '@portico/proto';
import type { z } from 'zod';
import { FirmAccess, Public } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe, PostAction } from '../http/route.decorators.js';
import { ValidBody, ValidQuery } from '../validation/zod.pipe.js';
import { FirmsClient } from './firms.client.js';
import { themeBySlugQuery, updatePreferencesBody } from './firms.schemas.js';

@ApiTags('firms')
@Controller('firms')
export class FirmsController {
  constructor(@Inject(FirmsClient) private readonly firms: FirmsClient) {}

  @Get('get_firm_theme_by_slug')
  @Public()
  @Describe('The sign-in branding of a firm', FirmThemeSchema)
  themeBySlug(
    @ValidQuery(themeBySlugQuery) query: z.output<typeof themeBySlugQuery>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.firms.themeBySlug(query, caller);
  }

  @PostAction('update_preferences')
  @FirmAccess('partner')
  @Describe(
    'Replace the firm preferences with the whole merged object (partners only); 409 when preferences_version is not the current one',
    FirmSchema,
  )
  updatePreferences(
    @ValidBody(updatePreferencesBody) body: z.output<typeof updatePreferencesBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.firms.updatePreferences(body, caller);
  }
}
