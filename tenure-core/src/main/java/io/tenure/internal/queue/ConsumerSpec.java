package io.tenure.internal.queue;

import io.tenure.MessageHandler;
import io.tenure.Queue;

/** A consumer registered on a node builder: which queue, how many handlers at once, which handler. */
public record ConsumerSpec(Queue queue, int concurrency, MessageHandler handler) {}
