package io.tenure.inmemory;

import io.tenure.Limits;
import io.tenure.LockInfo;
import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Named locks in memory, under the cluster tables' monitor as every other write. */
final class InMemoryLockStore implements LockStore {
  private final InMemoryStore store;

  InMemoryLockStore(InMemoryStore store) {
    this.store = store;
  }

  @Override
  public Optional<LockGrant> acquire(String name, String owner, String holder, Duration ttl) {
    LockInfo.checkName(name);
    LockGrant.checkOwner(owner);
    LockInfo.checkHolder(holder);
    Limits.checkPositive("a lock TTL", ttl, Limits.MAX_DURATION);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      ClusterTables.LockRow row = t.locks.get(name);
      if (row != null && row.expiresAt().isAfter(now)) {
        return Optional.empty();
      }
      long token = row == null ? 1 : row.token() + 1;
      ClusterTables.LockRow taken =
          new ClusterTables.LockRow(name, holder, owner, token, now, now.plus(ttl));
      t.locks.put(name, taken);
      return Optional.of(new LockGrant(name, owner, holder, token, now, taken.expiresAt()));
    }
  }

  @Override
  public boolean renew(LockGrant grant, Duration ttl) {
    Limits.checkPositive("a lock TTL", ttl, Limits.MAX_DURATION);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      ClusterTables.LockRow row = t.locks.get(grant.name());
      if (!heldBy(row, grant, now)) {
        return false;
      }
      t.locks.put(grant.name(), row.withExpiry(row.owner(), now.plus(ttl)));
      return true;
    }
  }

  @Override
  public boolean release(LockGrant grant, Duration keepFor) {
    Limits.checkNotNegative("a lock's keep-for time", keepFor, Limits.MAX_DURATION);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      ClusterTables.LockRow row = t.locks.get(grant.name());
      if (!heldBy(row, grant, now)) {
        return false;
      }
      Instant kept = row.acquiredAt().plus(keepFor);
      t.locks.put(grant.name(), row.withExpiry(null, kept.isAfter(now) ? kept : now));
      return true;
    }
  }

  @Override
  public boolean holds(LockGrant grant) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return heldBy(t.locks.get(grant.name()), grant, store.now());
    }
  }

  @Override
  public boolean holds(Connection transaction, LockGrant grant) {
    store.checkOpen();
    throw new UnsupportedOperationException(
        "the in-memory store has no JDBC transactions; check the lock with holds(grant)");
  }

  @Override
  public Optional<LockInfo> read(String name) {
    LockInfo.checkName(name);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return Optional.ofNullable(t.locks.get(name)).map(row -> row.info(now));
    }
  }

  @Override
  public List<LockInfo> list(int limit) {
    if (limit < 1 || limit > 10_000) {
      throw new IllegalArgumentException("limit must be 1 to 10,000, got " + limit);
    }
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return t.locks.values().stream().limit(limit).map(row -> row.info(now)).toList();
    }
  }

  private static boolean held(ClusterTables.LockRow row, Instant now) {
    return row.owner() != null && row.expiresAt().isAfter(now);
  }

  private static boolean heldBy(ClusterTables.LockRow row, LockGrant grant, Instant now) {
    return row != null
        && held(row, now)
        && grant.owner().equals(row.owner())
        && grant.token() == row.token();
  }
}
