-- The ownership epoch record of each agent (SPEC §5.1): the last epoch issued and the node holding
-- it (NULL once released). It outlives the agent's row, so a row deleted, retired and placed again
-- or restored never starts below an epoch some owner already used: every claim takes the larger of
-- the row's epoch and this one, plus 1. Seeded from the rows in place.
CREATE TABLE IF NOT EXISTS ${prefix}agent_epochs (
  agent_uri  VARCHAR(255) NOT NULL PRIMARY KEY,
  epoch      BIGINT       NOT NULL,
  owner_node VARCHAR(36)
);
INSERT INTO ${prefix}agent_epochs (agent_uri, epoch, owner_node)
  SELECT agent_uri, epoch, owner_node FROM ${prefix}agents
  ON CONFLICT (agent_uri) DO UPDATE SET epoch = excluded.epoch, owner_node = excluded.owner_node
  WHERE ${prefix}agent_epochs.epoch < excluded.epoch;
