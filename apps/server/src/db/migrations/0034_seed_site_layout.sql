-- The white-label layouts (issue 21): which home and which user centre the app's tab bar and "me"
-- entries open. A fresh installation opens the spec's tab routes, home-k and me-k; an operator
-- chooses another in the console (audited). Every layout keeps its own route either way.
INSERT INTO site_setting (key, value) VALUES ('layout', '{"home": "home-k", "me": "me-k"}')
ON CONFLICT (key) DO NOTHING;
