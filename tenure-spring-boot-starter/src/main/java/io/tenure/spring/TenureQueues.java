package io.tenure.spring;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.StoreUnavailableException;
import io.tenure.Tenure;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The application's queues by name, and an enqueue that joins the current Spring transaction.
 *
 * <pre>
 * &#64;Transactional
 * public void signUp(String user) {
 *   jdbc.update("INSERT INTO users (name) VALUES (?)", user);
 *   queues.enqueue("emails", OutgoingMessage.text("welcome " + user));   // commits with the insert
 * }
 * </pre>
 *
 * <p>{@link #enqueue} inside a transaction writes the message on the transaction's connection (the
 * transactional outbox, SPEC §6.1): it exists only if the transaction commits. Outside a
 * transaction it enqueues in a transaction of its own. Inside a transaction that holds no
 * connection of the {@code DataSource} Tenure runs on (another data source's, or Tenure opened by
 * {@code tenure.store}) it refuses, rather than enqueue a message the transaction cannot take back;
 * {@link #queue(String)}{@code .enqueue(...)} enqueues on its own, always.
 *
 * <p>A queue's policy comes from a {@link Queue} bean of that name (build one with {@link
 * #queue(String, QueuePolicy)}), else from {@code tenure.queues.NAME.*}, else {@link
 * QueuePolicy#defaults()}. Thread-safe.
 */
public final class TenureQueues {
  private final Tenure tenure;
  private final @Nullable DataSource dataSource;
  private final Map<String, QueuePolicy> configured = new LinkedHashMap<>();
  private final Map<String, Queue> queues = new ConcurrentHashMap<>();
  private final List<Consumer<Queue>> listeners = new CopyOnWriteArrayList<>();

  /**
   * @param tenure the Tenure the queues belong to
   * @param dataSource the data source {@code tenure} runs on, whose transactions an enqueue joins;
   *     null if it was opened by URL
   * @param properties {@code tenure.queues}: policies by queue name
   * @throws IllegalArgumentException naming the properties if a queue name or a policy is invalid
   */
  public TenureQueues(
      Tenure tenure,
      @Nullable DataSource dataSource,
      Map<String, TenureQueueProperties> properties) {
    this.tenure = tenure;
    this.dataSource = dataSource;
    properties.forEach(
        (name, queue) -> {
          try {
            Queue.checkName(name);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tenure.queues." + name + ": " + e.getMessage());
          }
          configured.put(name, queue.policy(name));
        });
  }

  /**
   * @param name the queue's name ({@link Queue#NAME})
   * @return the queue, with the policy of a {@link Queue} bean of that name, else of {@code
   *     tenure.queues.NAME.*}, else the defaults; the same instance every call
   * @throws IllegalArgumentException if the name is invalid
   */
  public Queue queue(String name) {
    Queue known = queues.get(name);
    return known != null
        ? known
        : register(name, configured.getOrDefault(name, QueuePolicy.defaults()), false);
  }

  /**
   * Opens a queue with a policy given in code, e.g. in a {@code @Bean Queue} method.
   *
   * @return the queue; the same instance for every later {@link #queue(String)} of the name
   * @throws IllegalArgumentException if the name is invalid
   * @throws IllegalStateException if the queue is already open with another policy, or {@code
   *     tenure.queues.NAME.*} configures it too (one place says what a queue's policy is)
   */
  public Queue queue(String name, QueuePolicy policy) {
    if (policy == null) {
      throw new IllegalArgumentException("queue '" + name + "': policy must not be null");
    }
    if (configured.containsKey(name) && !configured.get(name).equals(policy)) {
      throw new IllegalStateException(
          "queue '"
              + name
              + "' is configured by tenure.queues."
              + name
              + ".* and given another policy in code; say it in one place");
    }
    return register(name, policy, true);
  }

  private synchronized Queue register(String name, QueuePolicy policy, boolean explicit) {
    Queue known = queues.get(name);
    if (known != null) {
      if (explicit && !known.policy().equals(policy)) {
        throw new IllegalStateException(
            "queue '" + name + "' is already open with another policy: " + known.policy());
      }
      return known;
    }
    Queue queue = tenure.queue(name, policy);
    queues.put(name, queue);
    listeners.forEach(listener -> listener.accept(queue));
    return queue;
  }

  /** Takes a {@link Queue} bean into the registry, so handlers of its name use its policy. */
  void adopt(Queue queue) {
    queue(queue.name(), queue.policy());
  }

  /**
   * @return the names of the queues opened so far, sorted
   */
  public Set<String> names() {
    return new TreeSet<>(queues.keySet());
  }

  /** Calls {@code listener} for every queue opened so far and every one opened later. */
  synchronized void forEachQueue(Consumer<Queue> listener) {
    queues.values().forEach(listener);
    listeners.add(listener);
  }

  /**
   * Enqueues one message, joining the current transaction if there is one.
   *
   * @return its id; for a repeated dedupe key, the first message's id
   * @throws IllegalStateException inside a transaction that holds no connection of Tenure's data
   *     source (nothing written)
   * @throws IllegalArgumentException as {@link Queue#enqueue(OutgoingMessage)}
   */
  public long enqueue(String queue, OutgoingMessage message) {
    return enqueueAll(queue, List.of(message)).get(0);
  }

  /**
   * Enqueues messages all or none, joining the current transaction if there is one.
   *
   * @return their ids, in order
   * @throws IllegalStateException inside a transaction that holds no connection of Tenure's data
   *     source (nothing written)
   * @throws IllegalArgumentException as {@link Queue#enqueueAll(List)}
   */
  public List<Long> enqueueAll(String queue, List<OutgoingMessage> messages) {
    Queue target = queue(queue);
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      return target.enqueueAll(messages);
    }
    DataSource source = transactional(queue);
    Connection connection = DataSourceUtils.getConnection(source);
    try {
      if (connection.getAutoCommit()) {
        throw notJoinable(queue, "its connection of Tenure's DataSource is in auto-commit mode");
      }
      return target.enqueueAll(connection, messages);
    } catch (SQLException e) {
      throw new StoreUnavailableException(
          "queue '" + queue + "': cannot read the transaction's connection: " + e.getMessage(), e);
    } finally {
      DataSourceUtils.releaseConnection(connection, source);
    }
  }

  /** The data source whose connection the current transaction holds, or a refusal. */
  private DataSource transactional(String queue) {
    if (dataSource == null) {
      throw notJoinable(
          queue,
          "Tenure was opened by URL (tenure.store), not on the application's DataSource, so no"
              + " transaction of the application can hold its connection");
    }
    if (TransactionSynchronizationManager.getResource(dataSource) == null) {
      throw notJoinable(
          queue,
          "it holds no connection of the DataSource Tenure runs on (is it another data source's"
              + " transaction?)");
    }
    return dataSource;
  }

  private static IllegalStateException notJoinable(String queue, String why) {
    return new IllegalStateException(
        "cannot enqueue to queue '"
            + queue
            + "' inside the current transaction: "
            + why
            + "; nothing was enqueued. Enqueue outside the transaction, or with"
            + " TenureQueues.queue(name).enqueue(...) to enqueue on its own");
  }
}
