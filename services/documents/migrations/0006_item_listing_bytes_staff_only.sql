ALTER TABLE "items" ADD COLUMN "listing_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "staff_only" boolean DEFAULT false NOT NULL;