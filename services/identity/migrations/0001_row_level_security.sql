-- Row-level security: the second lock behind every query's firm filter (see @portico/platform inFirm).

ALTER TABLE "firms" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "firms" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "firms_firm_isolation" ON "firms" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "firm_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "firm_groups" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "firm_groups_firm_isolation" ON "firm_groups" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "users_firm_isolation" ON "users" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "companies" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "companies" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "companies_firm_isolation" ON "companies" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "company_owners" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "company_owners" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "company_owners_firm_isolation" ON "company_owners" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "one_time_secrets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "one_time_secrets" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "one_time_secrets_firm_isolation" ON "one_time_secrets" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "refresh_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "refresh_tokens" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "refresh_tokens_firm_isolation" ON "refresh_tokens" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));
