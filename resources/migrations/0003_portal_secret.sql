-- The billing portal (issue 7): the key that signs portal links. One row,
-- made by the first server that needs it, so every server on a shared
-- database accepts the links the others hand out.
CREATE TABLE portal_secret (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  secret TEXT NOT NULL
)
