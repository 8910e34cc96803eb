package io.tenure.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * tenure-bom names every published module, and nothing else, at the build's version. A module is
 * published unless it is the BOM, a pom, or sets {@code maven.javadoc.skip} (the modules that are
 * not published ship no javadoc): a new module is either listed in the BOM or says it is not
 * published.
 */
class BomTest {
  @Test
  void the_bom_lists_every_published_module_at_the_builds_version() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("tenure-bom"))) {
      root = root.getParent();
    }
    Document parent = read(root.resolve("pom.xml"));
    Document bom = read(root.resolve("tenure-bom/pom.xml"));

    Set<String> published = new TreeSet<>();
    for (String module : texts(parent.getDocumentElement(), "modules", "module")) {
      Document pom = read(root.resolve(module).resolve("pom.xml"));
      Element project = pom.getDocumentElement();
      boolean notPublished =
          "tenure-bom".equals(child(project, "artifactId"))
              || "pom".equals(child(project, "packaging"))
              || !texts(project, "properties", "maven.javadoc.skip").isEmpty();
      if (!notPublished) {
        published.add(child(project, "artifactId"));
      }
    }

    Element managed = first(bom.getDocumentElement(), "dependencyManagement");
    Set<String> listed = new TreeSet<>();
    for (Element dependency : children(first(managed, "dependencies"), "dependency")) {
      assertThat(child(dependency, "groupId")).isEqualTo("io.tenure");
      assertThat(child(dependency, "version")).isEqualTo("${project.version}");
      listed.add(child(dependency, "artifactId"));
    }

    assertThat(published).as("the scan sees the modules").contains("tenure-core", "tenure-jdbc");
    assertThat(listed).as("tenure-bom's modules").isEqualTo(published);
    assertThat(child(bom.getDocumentElement(), "version"))
        .as("tenure-bom's version")
        .isEqualTo(child(parent.getDocumentElement(), "version"));
  }

  private static Document read(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  private static List<String> texts(Element parent, String container, String name) {
    Element holder = first(parent, container);
    return holder == null
        ? List.of()
        : children(holder, name).stream().map(e -> e.getTextContent().trim()).toList();
  }

  private static String child(Element parent, String name) {
    Element e = first(parent, name);
    return e == null ? null : e.getTextContent().trim();
  }

  private static Element first(Element parent, String name) {
    List<Element> all = children(parent, name);
    return all.isEmpty() ? null : all.getFirst();
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node node = nodes.item(i);
      if (node instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }
}
