package io.tenure;

/**
 * The dialect a schedule's cron expression is written in. Either way a slot is a wall-clock time in
 * the schedule's time zone; how a daylight-saving change moves it is described with the schedules.
 */
public enum CronSyntax {
  /**
   * Five fields, minute to day of week, as in crontab: {@code 30 2 * * *} is 02:30 every day. When
   * both day of month and day of week are restricted, a day matching either fires.
   */
  UNIX,

  /**
   * Six fields, seconds first, as in Quartz: {@code 0/15 * * * * ?} is every 15 seconds. Day of
   * month or day of week must be {@code ?}. A seventh field, the year, may be given only as {@code
   * *}: a schedule repeats without end.
   */
  QUARTZ
}
