#!/usr/bin/env python3
"""The queries of docs/query.md, run by DuckDB on a real store and its export.

Usage: duckdb_query_test.py EDGEBENCH DOCS_QUERY_MD WORKDIR, with the DuckDB wheel's directory
on PYTHONPATH (scripts/fixtures duckdb). Makes a store with the null backend (two targets, four
scenarios), exports it, runs every `-- query: NAME` block of the doc with its paths pointed at
these, and checks the numbers against the records as Python's json module reads them. Exit 0
when all agree; 1 with what differs.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys


def main():
    edgebench, doc_path, workdir = sys.argv[1:4]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    try:
        import duckdb
    except ImportError as error:
        sys.exit(f"duckdb_query_test: cannot import DuckDB's Python module ({error}); "
                 "scripts/fixtures unpacks the pinned wheel (scripts/test runs it)")

    store = os.path.join(workdir, "store")
    tables = os.path.join(workdir, "tables")
    subprocess.run([edgebench, "run", "x", "-t", "null:sleep?us=1000,null:sleep?us=2000",
                    "--scenario", "single-stream,multi-stream:2,server:200,offline",
                    "--warmup", "2", "--min-queries", "30", "--min-duration", "100", "--max-cv", "10", "--allow-busy",
                    "--out", store], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run([edgebench, "export", store, "--out", tables], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(store, "results.jsonl")) as f:
        records = [json.loads(line) for line in f]
    assert len(records) == 8, f"{len(records)} records, expected 8"

    queries = {}
    text = open(doc_path).read()
    for block in re.findall(r"```sql\n(.*?)```", text, re.S):
        m = re.match(r"-- query: (\S+)\n", block)
        if m:
            queries[m.group(1)] = (block.replace("'results/demo/", "'" + store + "/")
                                   .replace("'tables/", "'" + tables + "/")
                                   .replace("'records.parquet'", "'" + os.path.join(workdir, "records.parquet") + "'"))
    expected = {"latency", "flat", "server", "tables", "parquet", "parquet-back"}
    assert set(queries) == expected, f"docs/query.md has queries {sorted(queries)}, the test runs {sorted(expected)}"

    failures = []

    def check(name, got, want):
        if got != want:
            failures.append(f"{name}:\n  duckdb:  {got}\n  records: {want}")

    def ms(ns):
        return None if ns is None else ns / 1e6

    con = duckdb.connect()
    ok = [r for r in records if r["status"] == "ok"]
    check("latency", con.sql(queries["latency"]).fetchall(),
          sorted([(r["config"]["model"], r["config"]["effective_target"], r["config"]["scenario"],
                   ms(r["summary"]["percentiles_ns"]["p50"]), r["summary"]["throughput_qps"]) for r in ok],
                 key=lambda row: (row[2], row[1])))
    single = [r for r in records if r["config"]["scenario"] == "single-stream"]
    check("flat", con.sql(queries["flat"]).fetchall(),
          sorted([(r["config"]["effective_target"], ms(r["summary"]["percentiles_ns"]["p50"]),
                   ms(r["summary"]["percentiles_ns"]["p99"]), r["summary"]["throughput_qps"]) for r in single],
                 key=lambda row: row[1]))
    server = [r for r in records if r["config"]["scenario"].startswith("server:")]
    check("server", con.sql(queries["server"]).fetchall(),
          sorted([(200.0, r["config"]["effective_target"], ms(r["summary"]["percentiles_ns"]["p50"]),
                   r["summary"]["throughput_qps"]) for r in server]))
    counts = collections.Counter(r["config"]["scenario"] for r in records)
    check("tables", con.sql(queries["tables"]).fetchall(), sorted(counts.items()))
    con.execute(queries["parquet"])
    check("parquet-back", con.sql(queries["parquet-back"]).fetchall(),
          sorted((r["config"]["scenario"], r["config"]["effective_target"],
                  ms(r["summary"]["percentiles_ns"]["p50"])) for r in records))
    if failures:
        print("\n".join(failures))
        return 1
    print(f"duckdb {duckdb.__version__}: {len(queries)} queries of {doc_path} agree with {len(records)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
