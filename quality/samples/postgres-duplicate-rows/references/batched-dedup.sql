-- Batched repoint + delete for large dedup jobs.
--
-- Prerequisites (see SKILL.md, steps 4 and 6):
--   * dedup_orders_map_20240611 (loser_id, survivor_id) exists
--   * dedup_orders_backup_20240611 holds a copy of every loser row
--   * the user has approved the delete
--
-- Run with:
--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f batched-dedup.sql
--
-- Each batch commits on its own (PostgreSQL 11+ procedures allow COMMIT
-- inside DO blocks run outside an explicit transaction). Safe to interrupt
-- and re-run: processed losers are removed from the work queue.
-- Replace table and column names before use.

-- Work queue: losers not yet deleted. Rebuilt on every run, so a re-run
-- picks up where the last one stopped.
DROP TABLE IF EXISTS dedup_orders_queue;
CREATE TABLE dedup_orders_queue AS
SELECT m.loser_id, m.survivor_id
FROM dedup_orders_map_20240611 m
JOIN orders o ON o.id = m.loser_id;
CREATE INDEX ON dedup_orders_queue (loser_id);

SELECT count(*) AS losers_remaining FROM dedup_orders_queue;

-- Scratch table for the current batch (session-local).
CREATE TEMP TABLE IF NOT EXISTS batch (loser_id bigint, survivor_id bigint);

DO $$
DECLARE
  batch_size constant int := 5000;
  n_deleted int;
  total int := 0;
BEGIN
  LOOP
    TRUNCATE batch;

    INSERT INTO batch
    SELECT loser_id, survivor_id FROM dedup_orders_queue
    ORDER BY loser_id
    LIMIT batch_size;

    EXIT WHEN NOT FOUND;

    -- Repoint every referencing table here, one UPDATE each.
    UPDATE order_items i SET order_id = b.survivor_id
    FROM batch b WHERE i.order_id = b.loser_id;

    DELETE FROM orders o USING batch b WHERE o.id = b.loser_id;
    GET DIAGNOSTICS n_deleted = ROW_COUNT;

    DELETE FROM dedup_orders_queue q USING batch b WHERE q.loser_id = b.loser_id;

    total := total + n_deleted;
    RAISE NOTICE 'deleted % (total %)', n_deleted, total;
    COMMIT;

    PERFORM pg_sleep(0.5);   -- give replicas and autovacuum room
  END LOOP;
  RAISE NOTICE 'done, % rows deleted', total;
END
$$;

-- Verify: should return zero rows.
SELECT customer_id, external_ref, count(*)
FROM orders
GROUP BY customer_id, external_ref
HAVING count(*) > 1
LIMIT 10;

DROP TABLE dedup_orders_queue;
