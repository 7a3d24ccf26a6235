-- The hourly prune of the outbox (platform bus/events.ts pruneEventRecords) finds its rows through these
-- instead of reading both tables whole. SHARE lock on each table for its build: events wait to be recorded.
-- Its own lock timeout (see 0013): a database already past 0013 runs this alone.
SET LOCAL lock_timeout = '5s';--> statement-breakpoint
CREATE INDEX "outbox_events_published_idx" ON "outbox_events" USING btree ("published_at") WHERE published_at is not null;--> statement-breakpoint
CREATE INDEX "processed_events_processed_idx" ON "processed_events" USING btree ("processed_at");