package io.tenure.spi;

/**
 * What a store is connected to, for status output and logs.
 *
 * @param provider the provider's short name: {@code memory}, {@code sqlite}, {@code postgresql} or
 *     {@code mariadb}
 * @param database the database product and version as the database reports it
 * @param location where the data lives, with secrets masked
 * @param prefix the table prefix
 * @param schemaVersion the highest schema migration applied
 * @param timePrecision the precision of stored times, e.g. {@code microseconds}
 * @param statementTimeout the bound on one heartbeat or lease statement, including the wait for its
 *     connection; {@link java.time.Duration#ZERO} where statements cannot block (in-memory)
 */
public record StoreDescription(
    String provider,
    String database,
    String location,
    TablePrefix prefix,
    int schemaVersion,
    String timePrecision,
    java.time.Duration statementTimeout) {}
