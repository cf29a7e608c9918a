#!/bin/sh
# Bootstraps realm POLARIS in Polaris's PostgreSQL store (runs in the polaris-admin-tool
# image before Polaris starts): the schema, and the root principal with
# POLARIS_ROOT_SECRET. The tool refuses a realm bootstrapped before (exit 3, "already been
# bootstrapped"); that is this job's success on every `up` after the first.
set -u
: "${POLARIS_ROOT_SECRET:?}"
out=$(/opt/jboss/container/java/run/run-java.sh bootstrap --realm=POLARIS --credential="POLARIS,root,$POLARIS_ROOT_SECRET" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v "$POLARIS_ROOT_SECRET"
if [ "$rc" -eq 0 ]; then exit 0; fi
if printf '%s\n' "$out" | grep -q 'already been bootstrapped'; then
  echo "polaris-bootstrap: realm POLARIS was bootstrapped before; kept as it is"
  exit 0
fi
exit "$rc"
