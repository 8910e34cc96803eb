# Sourced by ./tenure, ./run-tests and .ci/run: exports JAVA_HOME as the newest JDK >= 21 found,
# so nobody has to set it. JAVA_HOME is one of the candidates, not an override: builds use the
# newest JDK present. To pin a JDK, set TENURE_JAVA_HOME (it must be 21 or newer).
tenure_java_version() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1
}

tenure_pinned_java_home() {
  local v
  if [ ! -x "$TENURE_JAVA_HOME/bin/javac" ]; then
    echo "tenure: TENURE_JAVA_HOME=$TENURE_JAVA_HOME is not a JDK (no bin/javac)." >&2
    return 1
  fi
  v=$(tenure_java_version "$TENURE_JAVA_HOME")
  if [ "${v:-0}" -lt 21 ]; then
    echo "tenure: TENURE_JAVA_HOME=$TENURE_JAVA_HOME is JDK ${v:-unknown}; Tenure needs 21 or newer." >&2
    return 1
  fi
  echo "$TENURE_JAVA_HOME"
}

tenure_find_java_home() {
  if [ -n "${TENURE_JAVA_HOME:-}" ]; then
    tenure_pinned_java_home
    return
  fi
  local best="" best_v=0 candidate v
  local on_path=""
  if command -v javac >/dev/null 2>&1; then
    on_path=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
  fi
  # JAVA_HOME first, so that it wins a tie with another JDK of the same version.
  for candidate in ${JAVA_HOME:+"$JAVA_HOME"} /usr/lib/jvm/* /opt/java/* /opt/jdk* \
      "$HOME"/.sdkman/candidates/java/* $on_path; do
    [ -x "$candidate/bin/javac" ] || continue
    v=$(tenure_java_version "$candidate")
    if [ "${v:-0}" -gt "$best_v" ]; then best="$candidate"; best_v="$v"; fi
  done
  if [ "$best_v" -ge 21 ]; then echo "$best"; return 0; fi
  echo "tenure: no JDK 21 or newer found (looked in JAVA_HOME, /usr/lib/jvm, /opt and PATH)." >&2
  echo "tenure: install one, e.g. 'apt-get install openjdk-21-jdk' or a Temurin 21+ build," >&2
  echo "tenure: or point TENURE_JAVA_HOME at one." >&2
  return 1
}

JAVA_HOME=$(tenure_find_java_home) || exit 1
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8 on JDK 23+ prints sun.misc.Unsafe warnings; they are Maven's, not ours.
if [ "$(tenure_java_version "$JAVA_HOME")" -ge 23 ]; then
  case "${MAVEN_OPTS:-}" in
    *sun-misc-unsafe-memory-access*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
  esac
fi
