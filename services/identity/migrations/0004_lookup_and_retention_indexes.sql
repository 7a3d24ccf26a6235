-- Indexes for sign-in lookups, the entity list, ending sessions and the retention job (services/identity/README.md).
-- Each build locks its table against writes (SHARE) until the run commits; the users statements come last, so
-- users (read by every request) is locked, reads included, only for its own short index build at the end.
-- A lock this run waits for more than 5 s fails it (the migration Job tries again, backoffLimit 6), instead
-- of queueing every request of the running version behind it; and this run takes a table's lock in an
-- order the running version's transactions may not (they hold a user's row, then write a token or an
-- event), so one of them and this run could wait on each other: PostgreSQL then ends one of the two, a
-- request (answered 503) or this run (tried again).
SET LOCAL lock_timeout = '5s';--> statement-breakpoint
CREATE INDEX "companies_list_idx" ON "companies" USING btree ("firm_id","created_at","id") WHERE "companies"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "company_owners_firm_company_idx" ON "company_owners" USING btree ("firm_id","company_id");--> statement-breakpoint
CREATE INDEX "one_time_secrets_expires_idx" ON "one_time_secrets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_live_idx" ON "refresh_tokens" USING btree ("user_id","expires_at") WHERE "refresh_tokens"."revoked_at" is null and "refresh_tokens"."rotated_at" is null;--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_revoked_idx" ON "refresh_tokens" USING btree ("revoked_at") WHERE "refresh_tokens"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX "outbox_events_published_idx" ON "outbox_events" USING btree ("published_at") WHERE published_at is not null;--> statement-breakpoint
CREATE INDEX "processed_events_processed_idx" ON "processed_events" USING btree ("processed_at");--> statement-breakpoint
-- Sign-in emails are compared as stored (users.email = $1) with an index on the column itself. Every write
-- path stores them lower-cased (normaliseEmail, the seed); a row written otherwise (by hand) is lower-cased
-- here with the lower() the old index folded with, so it is found by exactly the addresses that found it
-- before. The old index was unique on lower(email) among live users, so no two live users can end up with
-- one address; deleted users are outside the index, and two of them (or a deleted and a live one) sharing
-- an address after this is allowed, as it was for case-insensitive duplicates before.
-- Across firms: row-level security is forced on users, for the migration's role too.
SELECT set_config('app.bypass_rls', 'on', true);--> statement-breakpoint
UPDATE "users" SET "email" = lower("email") WHERE "email" <> lower("email");--> statement-breakpoint
SELECT set_config('app.bypass_rls', '', true);--> statement-breakpoint
DROP INDEX "users_email_live_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_live_idx" ON "users" USING btree ("email") WHERE "users"."deleted_at" is null;
