-- pgbench's add to cart (bench/commerce.ts): the writes and reads of adding a product to a new
-- cart, on Atelier's own tables: the visitor's rate-limit counter (an upsert), the cart, its entry,
-- and the entries read back. Variables (pgbench -D): website, item, variant, sku.
\set n random(1, 2000000000)
BEGIN;
INSERT INTO rate_limit_counters (key, count, window_start)
  VALUES ('pgbench:' || :client_id || ':' || :n, 1, now())
  ON CONFLICT (key) DO UPDATE SET count = rate_limit_counters.count + 1;
INSERT INTO carts (id, website_id, token_hash, created_at, updated_at)
  VALUES ('pgbench-cart-' || :client_id || '-' || :n, :website, md5('pgbench-' || :client_id || '-' || :n), now(), now());
INSERT INTO cart_entries (id, website_id, cart_id, item_id, variant_id, sku, quantity, created_at)
  VALUES ('pgbench-entry-' || :client_id || '-' || :n, :website, 'pgbench-cart-' || :client_id || '-' || :n,
          :item, :variant, :sku, 1, now());
SELECT * FROM cart_entries WHERE cart_id = 'pgbench-cart-' || :client_id || '-' || :n ORDER BY created_at, id;
END;
