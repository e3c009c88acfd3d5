#!/usr/bin/env python3
"""Derives lending_club_first1000_roi.csv.gz from the 74-column LendingClub sample.

usage: make_sample.py SOURCE.csv OUT.csv.gz
SOURCE: lending_club_first1000.csv (sha256 ce5a3748...7311114, see README.md). The five columns
loan-roi reads are written unchanged, in the source's row order, gzip-compressed with mtime 0 so
the output is byte-for-byte reproducible.
"""
import csv
import gzip
import io
import os
import sys

COLUMNS = ["id", "funded_amnt_inv", "int_rate", "annual_inc", "total_pymnt_inv"]


def main(source: str, out: str) -> None:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    with open(source, newline="") as f:
        for row in csv.DictReader(f):
            writer.writerow([row[c] for c in COLUMNS])
    with open(out, "wb") as raw, gzip.GzipFile(filename=os.path.basename(out), mode="wb", fileobj=raw, mtime=0) as gz:
        gz.write(text.getvalue().encode())


if __name__ == "__main__":
    main(*sys.argv[1:3])
