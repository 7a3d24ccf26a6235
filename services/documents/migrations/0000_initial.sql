CREATE TABLE "drop_links" (
	"firm_id" uuid PRIMARY KEY NOT NULL,
	"notify_user_ids" text[] DEFAULT '{}' NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_offs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firm_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text DEFAULT '' NOT NULL,
	"uploader_name" text DEFAULT '' NOT NULL,
	"uploader_email" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "extracted_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firm_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"name" text NOT NULL,
	"source" text DEFAULT 'upload' NOT NULL,
	"status" text DEFAULT 'review_required' NOT NULL,
	"document_type" text DEFAULT '' NOT NULL,
	"categorized_by_ai" boolean DEFAULT false NOT NULL,
	"parent_document_id" uuid,
	"parent_pages" text DEFAULT '' NOT NULL,
	"differentiator" text DEFAULT '' NOT NULL,
	"page_count" integer DEFAULT 0 NOT NULL,
	"marked_as_others" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"questionnaire_id" text DEFAULT '' NOT NULL,
	"annotations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firm_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"storage_key" text,
	"size" bigint DEFAULT 0 NOT NULL,
	"content_type" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"is_protected" boolean DEFAULT false NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"upload_type" text DEFAULT '' NOT NULL,
	"questionnaire_id" text DEFAULT '' NOT NULL,
	"extracted_document_id" uuid,
	"parent_document_id" uuid,
	"preview_key" text,
	"preview_status" text DEFAULT 'none' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "processed_events" (
	"consumer" text NOT NULL,
	"event_id" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firm_id" uuid NOT NULL,
	"company_id" uuid,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"declared_size" bigint NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "drop_offs_firm_idx" ON "drop_offs" USING btree ("firm_id","created_at");--> statement-breakpoint
CREATE INDEX "extracted_company_idx" ON "extracted_documents" USING btree ("firm_id","company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "items_live_path_idx" ON "items" USING btree ("company_id","folder",lower("name")) WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_company_folder_idx" ON "items" USING btree ("firm_id","company_id","folder");--> statement-breakpoint
CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events" USING btree ("created_at") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "uploads_firm_idx" ON "uploads" USING btree ("firm_id");