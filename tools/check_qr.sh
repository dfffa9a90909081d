#!/usr/bin/env bash
# The room screen's QR code, read back from its picture by an independent
# reader (zbar's zbarimg), is the join link the same screen writes out.
# Usage: check_qr.sh ROOM.png ROOM.tsv (the scene `room` with --controls)
set -euo pipefail
png=$1 tsv=$2
read=$(zbarimg --raw -q "$png" 2>/dev/null || true)
link=$(grep -o 'http[^[:space:]]*#room=[0-9A-Z]*' "$tsv" | head -1 || true)
if [ -z "$link" ]; then
    echo "check_qr: no join link written on the room screen ($tsv)"
    exit 1
fi
if [ "$read" != "$link" ]; then
    echo "check_qr: the QR code reads \"$read\", the screen's link is \"$link\""
    exit 1
fi
echo "check_qr: the room's QR code reads as its link ($link)"
