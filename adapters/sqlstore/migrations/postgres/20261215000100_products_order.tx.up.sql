-- A list read takes its products in the order they are shown (oldest
-- first, then by name in byte order): an index in that order spares the
-- sort of every product of the list on every read (issue 24).
CREATE INDEX IF NOT EXISTS products_list_order_idx ON products (list_id, created_at, name COLLATE "C", id);
