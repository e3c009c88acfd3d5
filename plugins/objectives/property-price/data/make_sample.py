#!/usr/bin/env python3
"""Draws cal_housing_sample2004.csv.gz from the California housing data.

usage: make_sample.py SOURCE.csv OUT.csv.gz
SOURCE: cal_housing_with_header.csv (sha256 534365b6...f51c8ab3, see README.md). The row indices
are shuffled with random.Random(2004); rows are taken in that order while their (longitude,
latitude) is new, until 2 004 are kept (a row is addressed by its location, so locations must be
distinct); they are written sorted by `row` (1-based line of SOURCE after its header) with
longitude, latitude and median_house_value unchanged, gzip-compressed with mtime 0.
"""
import csv
import gzip
import io
import os
import random
import sys

SEED = 2004
COUNT = 2004


def main(source: str, out: str) -> None:
    with open(source, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    order = list(range(len(rows)))
    random.Random(SEED).shuffle(order)
    seen, kept = set(), []
    for i in order:
        location = (rows[i]["longitude"], rows[i]["latitude"])
        if location in seen:
            continue
        seen.add(location)
        kept.append(i)
        if len(kept) == COUNT:
            break
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["row", "longitude", "latitude", "median_house_value"])
    for i in sorted(kept):
        r = rows[i]
        writer.writerow([i + 1, r["longitude"], r["latitude"], r["median_house_value"]])
    with open(out, "wb") as raw, gzip.GzipFile(filename=os.path.basename(out), mode="wb", fileobj=raw, mtime=0) as gz:
        gz.write(text.getvalue().encode())


if __name__ == "__main__":
    main(*sys.argv[1:3])
