#!/usr/bin/env python3
"""Extract tables from a PDF with pdfplumber."""
import argparse, csv, json, sys
import pdfplumber

def pages(spec, n):
    if not spec:
        return range(n)
    out = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a) - 1, int(b or a)))
    return out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--pages")
    ap.add_argument("--format", default="csv", choices=["csv", "md", "json"])
    ap.add_argument("--lattice", action="store_true")
    a = ap.parse_args()
    settings = {"vertical_strategy": "lines" if a.lattice else "text"}
    rows = []
    with pdfplumber.open(a.pdf) as pdf:
        for i in pages(a.pages, len(pdf.pages)):
            for t in pdf.pages[i].extract_tables(settings):
                rows.extend(t)
    if a.format == "json":
        json.dump(rows, sys.stdout, indent=2)
    elif a.format == "md":
        for r in rows:
            print("| " + " | ".join(c or "" for c in r) + " |")
    else:
        csv.writer(sys.stdout).writerows(rows)

if __name__ == "__main__":
    main()
