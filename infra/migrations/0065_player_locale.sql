-- The language a player reads the web client in (docs/api.md, "Players"): one of the four
-- the client has catalogs for, or none (the client then follows the browser's languages).
ALTER TABLE players ADD COLUMN locale text CHECK (locale IN ('en', 'fr', 'ru', 'pl'));
