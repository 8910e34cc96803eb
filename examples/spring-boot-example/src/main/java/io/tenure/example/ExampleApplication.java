package io.tenure.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Sign-ups that send a welcome email through a Tenure queue, on PostgreSQL. Run it with {@code mvn
 * -pl examples/spring-boot-example spring-boot:run} (docs/SPRING.md#the-example), then {@code curl
 * -X POST 'localhost:8080/signups?name=ada'}.
 */
@SpringBootApplication
public class ExampleApplication {
  public static void main(String[] args) {
    SpringApplication.run(ExampleApplication.class, args);
  }
}
