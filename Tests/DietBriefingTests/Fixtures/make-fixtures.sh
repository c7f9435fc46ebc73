#!/usr/bin/env bash
# Writes the gzip fixtures of CalendarFetchTests (run from this folder; gzip -n makes them
# byte-for-byte reproducible):
# - bomb.ics.gz: about 200 KB that unpack to 200 MB, past the 20 MB limit of a calendar;
# - work.ics.gz: a small calendar served compressed, which must still be read.
set -euo pipefail
{ printf 'BEGIN:VCALENDAR\r\nX-PADDING:'; head -c 209715200 /dev/zero | tr '\0' 'A'; printf '\r\nEND:VCALENDAR\r\n'; } | gzip -9n > bomb.ics.gz
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:review-1\r\nDTSTART:20260105T090000Z\r\nDTEND:20260105T103000Z\r\nSUMMARY:Quarterly review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' | gzip -9n > work.ics.gz
