DROP INDEX "drop_offs_firm_idx";--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "discarded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "drop_offs_firm_idx" ON "drop_offs" USING btree ("firm_id","created_at","id");