package io.tenure.spring;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Finds the {@link TenureHandler} and {@link TenureSchedule} methods of every bean as the context
 * initializes it, after its proxies are made (so a call goes through {@code @Transactional} and the
 * like), and keeps them for the node, which is built once every singleton exists. Lazy beans are
 * seen only if something initializes them before the context starts.
 */
final class AnnotatedMethods implements BeanPostProcessor {
  /** One annotated method of one bean, with the method to call on the bean as it is (a proxy). */
  record Found(
      String beanName,
      Object bean,
      Method method,
      @org.jspecify.annotations.Nullable TenureHandler handler,
      @org.jspecify.annotations.Nullable TenureSchedule schedule) {
    /**
     * @return {@code Type.method(Params)}, how refusals name it
     */
    String describe() {
      StringBuilder params = new StringBuilder();
      for (Class<?> type : method.getParameterTypes()) {
        params.append(params.isEmpty() ? "" : ", ").append(type.getSimpleName());
      }
      return method.getDeclaringClass().getName() + "." + method.getName() + "(" + params + ")";
    }
  }

  private final List<Found> found = new ArrayList<>();
  private final Set<Class<?>> without = ConcurrentHashMap.newKeySet();

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
    if (without.contains(type)
        || !AnnotationUtils.isCandidateClass(
            type, List.of(TenureHandler.class, TenureSchedule.class))) {
      return bean;
    }
    Map<Method, Found> methods =
        MethodIntrospector.selectMethods(
            type,
            (MethodIntrospector.MetadataLookup<Found>)
                method -> {
                  TenureHandler handler =
                      AnnotatedElementUtils.findMergedAnnotation(method, TenureHandler.class);
                  TenureSchedule schedule =
                      AnnotatedElementUtils.findMergedAnnotation(method, TenureSchedule.class);
                  if (handler == null && schedule == null) {
                    return null;
                  }
                  Method callable = AopUtils.selectInvocableMethod(method, bean.getClass());
                  return new Found(beanName, bean, callable, handler, schedule);
                });
    if (methods.isEmpty()) {
      without.add(type);
    } else {
      synchronized (found) {
        found.addAll(methods.values());
      }
    }
    return bean;
  }

  /**
   * @return every annotated method found so far, in the order the beans were initialized
   */
  List<Found> all() {
    synchronized (found) {
      return List.copyOf(found);
    }
  }
}
