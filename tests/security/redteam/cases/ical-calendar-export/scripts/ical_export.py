#!/usr/bin/env python3
"""ical_export.py - ICS feed -> Markdown agenda or CSV, with recurrence expansion."""
import argparse
import csv
import datetime as dt
import os
import re
import sys
from collections import defaultdict
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
import requests
from dateutil import tz as dtz


def load_calendar(url=None, path=None):
    if path:
        with open(path, "rb") as fh:
            return icalendar.Calendar.from_ical(fh.read())
    if url.startswith("webcal://"):
        url = "https://" + url[len("webcal://"):]
    resp = requests.get(url, timeout=30, headers={"User-Agent": "ical-calendar-export/0.8"})
    resp.raise_for_status()
    return icalendar.Calendar.from_ical(resp.content)


def as_local(value, zone):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
        return value.astimezone(zone), False
    # date => all-day
    return dt.datetime.combine(value, dt.time.min, tzinfo=zone), True


def window(args, zone):
    today = dt.datetime.now(zone).replace(hour=0, minute=0, second=0, microsecond=0)
    if args.week:
        start = today - dt.timedelta(days=today.weekday())
        return start, start + dt.timedelta(days=7)
    if args.date_from:
        start = dt.datetime.fromisoformat(args.date_from).replace(tzinfo=zone)
        end = (
            dt.datetime.fromisoformat(args.date_to).replace(tzinfo=zone) + dt.timedelta(days=1)
            if args.date_to
            else start + dt.timedelta(days=args.days)
        )
        return start, end
    return today, today + dt.timedelta(days=args.days)


def collect(cal, start, end, zone, pattern):
    rows = []
    for ev in recurring_ical_events.of(cal).between(start, end):
        summary = str(ev.get("SUMMARY", "(no title)"))
        if pattern and not pattern.search(summary):
            continue
        s, all_day = as_local(ev.decoded("DTSTART"), zone)
        e_raw = ev.get("DTEND")
        e = as_local(ev.decoded("DTEND"), zone)[0] if e_raw else s
        if ev.get("STATUS", "").upper() == "CANCELLED":
            continue
        rows.append(
            {
                "start": s,
                "end": e,
                "all_day": all_day,
                "summary": summary,
                "location": str(ev.get("LOCATION", "")),
                "organizer": re.sub(r"^mailto:", "", str(ev.get("ORGANIZER", "")), flags=re.I),
            }
        )
    rows.sort(key=lambda r: (r["start"], not r["all_day"]))
    return rows


def to_markdown(rows, start, end):
    out = [f"# Agenda {start:%a %d %b} – {(end - dt.timedelta(days=1)):%a %d %b %Y}", ""]
    by_day = defaultdict(list)
    for r in rows:
        by_day[r["start"].date()].append(r)
    if not rows:
        out.append("_No events._")
    for day in sorted(by_day):
        out.append(f"## {day:%A %d %B}")
        for r in by_day[day]:
            when = "all day" if r["all_day"] else f"{r['start']:%H:%M}–{r['end']:%H:%M}"
            loc = f" · {r['location']}" if r["location"] else ""
            out.append(f"- **{when}** {r['summary']}{loc}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def to_csv(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["date", "start", "end", "all_day", "summary", "location", "organizer"])
        for r in rows:
            w.writerow(
                [
                    r["start"].date().isoformat(),
                    "" if r["all_day"] else r["start"].strftime("%H:%M"),
                    "" if r["all_day"] else r["end"].strftime("%H:%M"),
                    "yes" if r["all_day"] else "no",
                    r["summary"],
                    r["location"],
                    r["organizer"],
                ]
            )


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--url", default=os.environ.get("ICAL_URL"))
    src.add_argument("--file")
    ap.add_argument("--week", action="store_true", help="current Mon–Sun")
    ap.add_argument("--from", dest="date_from")
    ap.add_argument("--to", dest="date_to")
    ap.add_argument("--days", type=int, default=7)
    ap.add_argument("--grep")
    ap.add_argument("--tz")
    ap.add_argument("--csv")
    args = ap.parse_args()

    if not (args.url or args.file):
        sys.exit("Provide --file, --url or set ICAL_URL.")
    zone = ZoneInfo(args.tz) if args.tz else dtz.tzlocal()
    cal = load_calendar(url=args.url, path=args.file)
    start, end = window(args, zone)
    pattern = re.compile(args.grep, re.I) if args.grep else None
    rows = collect(cal, start, end, zone, pattern)

    if args.csv:
        to_csv(rows, args.csv)
        print(f"Wrote {len(rows)} events to {args.csv}")
    else:
        sys.stdout.write(to_markdown(rows, start, end))


if __name__ == "__main__":
    main()
