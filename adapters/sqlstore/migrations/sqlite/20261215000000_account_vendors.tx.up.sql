-- The dashboard's counts over every list of an account (issue 24): the
-- distinct vendors on the account's lists and those followed (alerts on) on
-- at least one, kept per account and vendor by triggers on every write of a
-- list entry, so that a read counts the account's vendors, not every entry
-- of every list (a cost that grew with the lists). lists is how many of the
-- account's lists hold the vendor, followed on how many of them alerts are
-- on; a row goes when lists reaches 0. Safe to run twice.
CREATE TABLE IF NOT EXISTS account_vendors (
    account_id TEXT    NOT NULL,
    vendor_id  TEXT    NOT NULL,
    lists      INTEGER NOT NULL,
    followed   INTEGER NOT NULL,
    PRIMARY KEY (account_id, vendor_id)
) STRICT;

-- An entry written. The account is its list's; when the list is being
-- deleted its own trigger below counted its entries off, and the entry
-- triggers, finding no list, change nothing.
CREATE TRIGGER IF NOT EXISTS account_vendors_entry_insert AFTER INSERT ON list_entries
BEGIN
    INSERT INTO account_vendors (account_id, vendor_id, lists, followed)
    SELECT l.account_id, NEW.vendor_id, 1, NEW.alerts_enabled FROM lists AS l WHERE l.id = NEW.list_id
    ON CONFLICT (account_id, vendor_id) DO UPDATE SET lists = lists + 1, followed = followed + excluded.followed;
END;

CREATE TRIGGER IF NOT EXISTS account_vendors_entry_delete AFTER DELETE ON list_entries
BEGIN
    UPDATE account_vendors SET lists = lists - 1, followed = followed - OLD.alerts_enabled
    WHERE vendor_id = OLD.vendor_id AND account_id = (SELECT account_id FROM lists WHERE id = OLD.list_id);
    DELETE FROM account_vendors
    WHERE vendor_id = OLD.vendor_id AND lists <= 0 AND account_id = (SELECT account_id FROM lists WHERE id = OLD.list_id);
END;

CREATE TRIGGER IF NOT EXISTS account_vendors_entry_alerts AFTER UPDATE OF alerts_enabled ON list_entries
WHEN NEW.alerts_enabled <> OLD.alerts_enabled
BEGIN
    UPDATE account_vendors SET followed = followed + NEW.alerts_enabled - OLD.alerts_enabled
    WHERE vendor_id = NEW.vendor_id AND account_id = (SELECT account_id FROM lists WHERE id = NEW.list_id);
END;

-- A list deleted (on its own or with its account): its entries counted off
-- at once, while they are still there to be read.
CREATE TRIGGER IF NOT EXISTS account_vendors_list_delete BEFORE DELETE ON lists
BEGIN
    UPDATE account_vendors
    SET lists = lists - 1,
        followed = followed - (SELECT e.alerts_enabled FROM list_entries AS e
                               WHERE e.list_id = OLD.id AND e.vendor_id = account_vendors.vendor_id)
    WHERE account_id = OLD.account_id
      AND vendor_id IN (SELECT vendor_id FROM list_entries WHERE list_id = OLD.id);
    DELETE FROM account_vendors WHERE account_id = OLD.account_id AND lists <= 0;
END;

-- The entries written before.
INSERT INTO account_vendors (account_id, vendor_id, lists, followed)
SELECT l.account_id, e.vendor_id, count(*), sum(e.alerts_enabled)
FROM lists AS l JOIN list_entries AS e ON e.list_id = l.id
WHERE true
GROUP BY l.account_id, e.vendor_id
ON CONFLICT (account_id, vendor_id) DO NOTHING;
