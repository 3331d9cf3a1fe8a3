#!/bin/sh
# A minimal ranger preview script for pxview (ranger's own scope.sh works
# too): $1 path. Exit 7: ranger draws the file as an image (through the
# pxview plugin); 2: ranger shows the file as text.
case "$(printf %s "$1" | tr '[:upper:]' '[:lower:]')" in
  *.jpg|*.jpeg|*.jpe|*.png|*.gif|*.webp|*.avif|*.heic|*.heif|*.hif|*.jxl) exit 7 ;;
esac
exit 2
