DROP INDEX "outbound_messages_due_idx";--> statement-breakpoint
CREATE INDEX "outbound_messages_claim_idx" ON "outbound_messages" USING btree ("channel","expires_at","next_attempt_at") WHERE status in ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "outbound_messages_spent_idx" ON "outbound_messages" USING btree ("attempts") WHERE status in ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "outbox_events_published_idx" ON "outbox_events" USING btree ("published_at") WHERE published_at is not null;--> statement-breakpoint
CREATE INDEX "processed_events_processed_idx" ON "processed_events" USING btree ("processed_at");