-- The ownership epoch record of each agent (SPEC §5.1): the last epoch issued and the node holding
-- it (NULL once released). It outlives the agent's row, so a row deleted, retired and placed again
-- or restored never starts below an epoch some owner already used: every claim takes the larger of
-- the row's epoch and this one, plus 1. Seeded from the rows in place.
CREATE TABLE IF NOT EXISTS ${prefix}agent_epochs (
  agent_uri  VARCHAR(255) NOT NULL PRIMARY KEY,
  epoch      BIGINT       NOT NULL,
  owner_node VARCHAR(36)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
INSERT INTO ${prefix}agent_epochs (agent_uri, epoch, owner_node)
  SELECT a.agent_uri, a.epoch, a.owner_node FROM ${prefix}agents a
  -- Assignments run left to right: the owner is judged against the epoch before it changes.
  ON DUPLICATE KEY UPDATE
  ${prefix}agent_epochs.owner_node = IF(VALUES(epoch) > ${prefix}agent_epochs.epoch, VALUES(owner_node),
    ${prefix}agent_epochs.owner_node),
  ${prefix}agent_epochs.epoch = GREATEST(${prefix}agent_epochs.epoch, VALUES(epoch));
