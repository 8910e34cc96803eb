#!/usr/bin/env bash
# Installs every published Tenure module (with its sources and javadoc jars) and the BOM into the
# local Maven repository, without running the tests, so another project can depend on them.
# Finds a JDK 21+ as ./run-tests does; extra arguments go to Maven.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
. "$ROOT/scripts/java-home.sh"
cd "$ROOT"
echo "install: JDK $JAVA_HOME" >&2
exec mvn -B -ntp install -DskipTests -Dpit.skip "$@"
