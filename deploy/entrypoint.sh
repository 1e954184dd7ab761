#!/bin/sh
# Entrypoint of the Atout image (deploy/Dockerfile), run under tini.
#   IMAGE projector           -> atout projector       (any word that is not a program: an atout subcommand)
#   IMAGE --port 9000         -> atout serve --port 9000
#   IMAGE                     -> atout serve
#   IMAGE sh | python ...     -> run as given
set -eu

# Celery prefork children write their metrics here (infra/observability.py): start empty.
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
    find "$PROMETHEUS_MULTIPROC_DIR" -mindepth 1 -delete
fi

if [ "$#" -eq 0 ]; then
    set -- serve
fi
case "$1" in
    -*) set -- atout serve "$@" ;;
    *) command -v "$1" >/dev/null 2>&1 || set -- atout "$@" ;;
esac
exec "$@"
