import { Controller, Get, Inject, Patch, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CompanySchema, ListCompaniesResponseSchema } from '@portico/proto';
import type { z } from 'zod';
import { Authenticated, Roles } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe } from '../http/route.decorators.js';
import { ValidBody, ValidId, ValidQuery } from '../validation/zod.pipe.js';
import { CompaniesClient } from './companies.client.js';
import { listCompaniesQuery, updateCompanyBody, updateCompanyProfileBody } from './companies.schemas.js';

@ApiTags('companies')
@Controller('companies')
export class CompaniesController {
  constructor(@Inject(CompaniesClient) private readonly companies: CompaniesClient) {}

  @Get(':id')
  @Authenticated()
  @Describe('An entity the caller may see', CompanySchema)
  get(@ValidId() id: string, @CurrentCaller() caller: Caller) {
    return this.companies.get(id, caller);
  }

  @Patch(':id')
  @Roles('advisor')
  @Describe('Update an entity (advisor editor)', CompanySchema)
  update(
    @ValidId() id: string,
    @ValidBody(updateCompanyBody) body: z.output<typeof updateCompanyBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.companies.update(id, body, caller);
  }

  @Put(':id')
  @Roles('client')
  @Describe('Update the entity profile (client)', CompanySchema)
  updateProfile(
    @ValidId() id: string,
    @ValidBody(updateCompanyProfileBody) body: z.output<typeof updateCompanyProfileBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.companies.updateProfile(id, body, caller);
  }
}

@ApiTags('companies')
@Controller('v2/entities')
export class EntitiesController {
  constructor(@Inject(CompaniesClient) private readonly companies: CompaniesClient) {}

  @Get()
  @Authenticated()
  @Describe('The paged entity list (search, page, rows_per_page)', ListCompaniesResponseSchema)
  list(
    @ValidQuery(listCompaniesQuery) query: z.output<typeof listCompaniesQuery>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.companies.list(query, caller);
  }
}
