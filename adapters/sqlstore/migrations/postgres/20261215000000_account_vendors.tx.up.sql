-- The dashboard's counts over every list of an account (issue 24): the
-- distinct vendors on the account's lists and those followed (alerts on) on
-- at least one, kept per account and vendor by triggers on every write of a
-- list entry, so that a read counts the account's vendors, not every entry
-- of every list (a cost that grew with the lists). lists is how many of the
-- account's lists hold the vendor, followed on how many of them alerts are
-- on; a row goes when lists reaches 0. Safe to run twice.
CREATE TABLE IF NOT EXISTS account_vendors (
    account_id uuid    NOT NULL,
    vendor_id  uuid    NOT NULL,
    lists      integer NOT NULL,
    followed   integer NOT NULL,
    PRIMARY KEY (account_id, vendor_id)
);

-- Entries written, counted per statement (a save of 500 vendors is one
-- set-based upsert, not 500 calls). The account is the list's; when a list
-- is deleted its entries go after it (the cascade runs after the list's
-- row is gone), so those rows join no list here: the list's own trigger
-- below counted them off. Rows are taken in key order, so concurrent
-- writers lock them in one order.
CREATE OR REPLACE FUNCTION account_vendors_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO account_vendors AS av (account_id, vendor_id, lists, followed)
    SELECT l.account_id, n.vendor_id, count(*), sum(n.alerts_enabled::int)
    FROM added AS n JOIN lists AS l ON l.id = n.list_id
    GROUP BY l.account_id, n.vendor_id
    ORDER BY l.account_id, n.vendor_id
    ON CONFLICT (account_id, vendor_id)
    DO UPDATE SET lists = av.lists + EXCLUDED.lists, followed = av.followed + EXCLUDED.followed;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION account_vendors_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE account_vendors AS av SET lists = av.lists - g.n, followed = av.followed - g.f
    FROM (SELECT l.account_id, o.vendor_id, count(*) AS n, sum(o.alerts_enabled::int) AS f
          FROM removed AS o JOIN lists AS l ON l.id = o.list_id
          GROUP BY l.account_id, o.vendor_id) AS g
    WHERE av.account_id = g.account_id AND av.vendor_id = g.vendor_id;
    DELETE FROM account_vendors AS av
    USING (SELECT DISTINCT l.account_id, o.vendor_id FROM removed AS o JOIN lists AS l ON l.id = o.list_id) AS g
    WHERE av.account_id = g.account_id AND av.vendor_id = g.vendor_id AND av.lists <= 0;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION account_vendors_switched() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE account_vendors AS av SET followed = av.followed + g.delta
    FROM (SELECT l.account_id, n.vendor_id, sum(n.alerts_enabled::int - o.alerts_enabled::int) AS delta
          FROM after_rows AS n
          JOIN before_rows AS o ON o.list_id = n.list_id AND o.vendor_id = n.vendor_id
          JOIN lists AS l ON l.id = n.list_id
          GROUP BY l.account_id, n.vendor_id) AS g
    WHERE av.account_id = g.account_id AND av.vendor_id = g.vendor_id AND g.delta <> 0;
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS account_vendors_added ON list_entries;
CREATE TRIGGER account_vendors_added AFTER INSERT ON list_entries
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION account_vendors_added();
DROP TRIGGER IF EXISTS account_vendors_removed ON list_entries;
CREATE TRIGGER account_vendors_removed AFTER DELETE ON list_entries
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION account_vendors_removed();
DROP TRIGGER IF EXISTS account_vendors_switched ON list_entries;
CREATE TRIGGER account_vendors_switched AFTER UPDATE ON list_entries
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION account_vendors_switched();

-- A list deleted (on its own or with its account): its entries counted off
-- at once, while they are still there to be read.
CREATE OR REPLACE FUNCTION account_vendors_list() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE account_vendors AS av SET lists = av.lists - 1, followed = av.followed - e.alerts_enabled::int
    FROM list_entries AS e
    WHERE e.list_id = OLD.id AND av.account_id = OLD.account_id AND av.vendor_id = e.vendor_id;
    DELETE FROM account_vendors WHERE account_id = OLD.account_id AND lists <= 0;
    RETURN OLD;
END
$$;

DROP TRIGGER IF EXISTS account_vendors_list ON lists;
CREATE TRIGGER account_vendors_list BEFORE DELETE ON lists
    FOR EACH ROW EXECUTE FUNCTION account_vendors_list();

-- The entries written before.
INSERT INTO account_vendors (account_id, vendor_id, lists, followed)
SELECT l.account_id, e.vendor_id, count(*), sum(e.alerts_enabled::int)
FROM lists AS l JOIN list_entries AS e ON e.list_id = l.id
GROUP BY l.account_id, e.vendor_id
ON CONFLICT (account_id, vendor_id) DO NOTHING;
