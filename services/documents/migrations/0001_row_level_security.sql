-- Row-level security: the second lock behind every query's firm filter (see @portico/platform inFirm).

ALTER TABLE "items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "items" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "items_firm_isolation" ON "items" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "uploads" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "uploads" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "uploads_firm_isolation" ON "uploads" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "extracted_documents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "extracted_documents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "extracted_documents_firm_isolation" ON "extracted_documents" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "drop_links" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "drop_links" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "drop_links_firm_isolation" ON "drop_links" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));--> statement-breakpoint
ALTER TABLE "drop_offs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "drop_offs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "drop_offs_firm_isolation" ON "drop_offs" USING (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true)) WITH CHECK (current_setting('app.bypass_rls', true) = 'on' OR "firm_id"::text = current_setting('app.firm_id', true));
