package io.tenure.tck;

import io.tenure.spi.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * Wraps a real store so that every call on it, and on the per-area stores it hands out, is recorded
 * as {@code Interface.method} before it goes through. A decorator placed over the recording store
 * shows which SPI method it really called: one that answers a call itself, or through another
 * method, leaves the wrong name behind.
 */
final class CallRecorder {
  private final List<String> calls = new ArrayList<>();

  /**
   * @return {@code real}, recording every call on it and on the stores it returns
   */
  Store wrap(Store real) {
    return proxy(Store.class, real);
  }

  /**
   * @return the calls recorded since the previous call of this method, in order
   */
  synchronized List<String> take() {
    List<String> taken = List.copyOf(calls);
    calls.clear();
    return taken;
  }

  private synchronized void record(String call) {
    calls.add(call);
  }

  @SuppressWarnings("unchecked")
  private <T> T proxy(Class<T> type, T real) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> {
              record(type.getSimpleName() + "." + method.getName());
              Object result;
              try {
                result = method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              Class<?> returned = method.getReturnType();
              // The per-area stores are SPI interfaces: their calls are recorded too.
              if (result != null
                  && returned.isInterface()
                  && returned.getPackageName().equals(Store.class.getPackageName())) {
                return proxy((Class<Object>) returned, result);
              }
              return result;
            });
  }
}
