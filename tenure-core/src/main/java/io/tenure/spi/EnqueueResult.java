package io.tenure.spi;

/**
 * @param id the message's id: the new one, or for a repeated dedupe key the existing one's
 * @param inserted false if a message with the same dedupe key already existed
 */
public record EnqueueResult(long id, boolean inserted) {}
