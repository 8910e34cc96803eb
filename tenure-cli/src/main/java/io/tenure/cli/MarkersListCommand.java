package io.tenure.cli;

import io.tenure.Marker;
import io.tenure.MarkerKey;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tenure markers list}: the markers of several resources of one tenant, in one read. */
@Command(
    name = "list",
    description = {
      "Show the markers of several resources of one tenant.",
      "At most "
          + MarkerStore.MAX_BATCH
          + " resources per call; those without a marker are"
          + " listed as missing."
    })
final class MarkersListCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "TENANT", description = "Tenant id.")
  String tenant = "";

  @Parameters(
      index = "1..*",
      arity = "1..*",
      paramLabel = "RESOURCE",
      description = "Resource ids.")
  List<String> resources = new ArrayList<>();

  private Set<String> distinct = Set.of(); // set by checkArguments, before run

  @Override
  void checkArguments() {
    MarkerKey.requireValidTenant(tenant);
    resources.forEach(resource -> MarkerKey.of(tenant, resource));
    distinct = new LinkedHashSet<>(resources);
    if (distinct.size() > MarkerStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "at most "
              + MarkerStore.MAX_BATCH
              + " resources per list, got "
              + distinct.size()
              + "; split them into several calls");
    }
  }

  @Override
  int run(Store store, Output output) {
    Map<String, Marker> found = markers(store).getAll(tenant, distinct);
    List<String> missing = distinct.stream().filter(r -> !found.containsKey(r)).toList();
    if (output.json()) {
      output.object(json(found, missing));
    } else {
      print(found, output);
    }
    return ExitCodes.OK;
  }

  private Map<String, Object> json(Map<String, Marker> found, List<String> missing) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("tenant", tenant);
    // In the order asked for, so output is stable whatever order the store returns.
    fields.put(
        "markers",
        distinct.stream()
            .filter(found::containsKey)
            .map(r -> MarkerView.json(found.get(r)))
            .toList());
    fields.put("missing", missing);
    return fields;
  }

  private void print(Map<String, Marker> found, Output output) {
    output.line(
        "markers found for %d of %d resources of tenant %s."
            .formatted(found.size(), distinct.size(), tenant));
    List<List<String>> rows = new ArrayList<>();
    for (String resource : distinct) {
      Marker marker = found.get(resource);
      rows.add(marker == null ? List.of(resource, "-", "", "") : row(marker));
    }
    output.table(List.of("RESOURCE", "STATE", "MARKED AT", "REASON"), rows);
  }

  private static List<String> row(Marker marker) {
    String reason = marker.reason() == null ? "" : marker.reason();
    return List.of(marker.resource(), marker.state(), marker.markedAt().toString(), reason);
  }
}
