package io.tenure.example;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /signups?name=ada} signs a user up; {@code GET /signups/ada} shows how far it is. */
@RestController
public class SignupController {
  private final Signups signups;
  private final WelcomeEmails emails;

  public SignupController(Signups signups, WelcomeEmails emails) {
    this.signups = signups;
    this.emails = emails;
  }

  @PostMapping("/signups")
  public Map<String, Object> signUp(
      @RequestParam String name, @RequestParam(defaultValue = "false") boolean fail) {
    return Map.of("name", name, "welcomeMessage", signups.signUp(name, fail));
  }

  @GetMapping("/signups/{name}")
  public Map<String, Object> show(@PathVariable String name) {
    return Map.of("name", name, "signedUp", signups.exists(name), "welcomed", emails.sentTo(name));
  }

  @ExceptionHandler(Signups.SignupFailed.class)
  public ResponseEntity<Map<String, String>> failed(Signups.SignupFailed e) {
    return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", e.getMessage()));
  }
}
