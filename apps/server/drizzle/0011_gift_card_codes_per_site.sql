ALTER TABLE "gift_cards" DROP CONSTRAINT "gift_cards_code_hash_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_code_idx" ON "gift_cards" USING btree ("website_id","code_hash");