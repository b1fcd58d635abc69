-- pgbench's checkout (bench/commerce.ts): the writes of an order of one line paid by card, on
-- Atelier's own tables: a cart and its entry, the stock taken with a conditional decrement, the
-- order numbered as Atelier numbers them (the site row's lock, next number), its line and its payment.
-- Variables (pgbench -D): website, item, variant, sku.
\set n random(1, 2000000000)
-- In Atelier's order: first the rows no other order waits for (the cart, its entry, the pending
-- payment), then the stock, then the site's row (its lock numbers the order; the order's own
-- content-version bump, which the commit's trigger then skips), then the order with its line.
BEGIN;
INSERT INTO carts (id, website_id, token_hash, is_purchased, created_at, updated_at)
  VALUES ('pgbench-cart-' || :client_id || '-' || :n, :website, md5('pgbench-' || :client_id || '-' || :n), true, now(), now());
INSERT INTO cart_entries (id, website_id, cart_id, item_id, variant_id, sku, quantity, created_at)
  VALUES ('pgbench-entry-' || :client_id || '-' || :n, :website, 'pgbench-cart-' || :client_id || '-' || :n,
          :item, :variant, :sku, 1, now());
INSERT INTO payments (id, website_id, order_id, cart_id, idempotency_key, provider, amount_cents, currency,
                      status, created_at, updated_at)
  VALUES ('pgbench-payment-' || :client_id || '-' || :n, :website, 'pgbench-order-' || :client_id || '-' || :n,
          'pgbench-cart-' || :client_id || '-' || :n, 'pgbench-' || :client_id || '-' || :n, 'test', 2800, 'USD',
          'pending', now(), now());
UPDATE product_variants SET qty_in_stock = qty_in_stock - 1, updated_at = now()
  WHERE id = :variant AND website_id = :website AND (unlimited OR qty_in_stock >= 1) RETURNING id;
UPDATE websites SET content_version = content_version + 1
  WHERE id = :website AND set_config('atelier.touched_' || :website, '1', true) = '1' RETURNING content_version;
WITH line AS (
  INSERT INTO order_lines (id, website_id, order_id, item_id, variant_id, sku, product_name, product_type,
                           unit_price_cents, quantity)
    VALUES ('pgbench-line-' || :client_id || '-' || :n, :website, 'pgbench-order-' || :client_id || '-' || :n,
            :item, :variant, :sku, 'pgbench', 1, 2800, 1))
INSERT INTO orders (id, website_id, order_number, cart_id, email, status, currency, subtotal_cents,
                    grand_total_cents, idempotency_key, created_at, updated_at)
  SELECT 'pgbench-order-' || :client_id || '-' || :n, :website, coalesce(max(order_number), 1000) + 1,
         'pgbench-cart-' || :client_id || '-' || :n, 'buyer@example.com', 'pending', 'USD', 2800, 2800,
         'pgbench-' || :client_id || '-' || :n, now(), now()
  FROM orders WHERE website_id = :website;
END;
