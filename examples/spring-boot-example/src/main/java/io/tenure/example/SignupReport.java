package io.tenure.example;

import io.tenure.spring.TenureSchedule;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Counts the sign-ups on a schedule: once per slot across every instance of the application,
 * whichever instance leads and whichever claims the slot's message.
 */
@Component
public class SignupReport {
  private static final Logger LOG = LoggerFactory.getLogger(SignupReport.class);

  private final Signups signups;
  private final AtomicLong reports = new AtomicLong();

  public SignupReport(Signups signups) {
    this.signups = signups;
  }

  @TenureSchedule(name = "signup-report", every = "${example.report-every:1m}")
  public void report() {
    reports.incrementAndGet();
    LOG.info("{} sign-ups so far", signups.count());
  }

  /**
   * @return how many reports this instance made
   */
  public long reports() {
    return reports.get();
  }
}
