#!/usr/bin/env python3
"""Rank the runs of an MLflow experiment by one metric."""
import argparse

import mlflow

LOWER_IS_BETTER = ("loss", "rmse", "mae", "error")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--experiment", required=True)
    p.add_argument("--metric", required=True)
    p.add_argument("--top", type=int, default=5)
    a = p.parse_args()
    ascending = any(w in a.metric for w in LOWER_IS_BETTER)
    runs = mlflow.search_runs(experiment_names=[a.experiment])
    col = f"metrics.{a.metric}"
    runs = runs.dropna(subset=[col]).sort_values(col, ascending=ascending).head(a.top)
    versions = set(runs.get("tags.data_version", []))
    if len(versions) > 1:
        print(f"warning: runs use {len(versions)} data versions: {sorted(versions)}")
    params = [c for c in runs.columns if c.startswith("params.")]
    print(runs[["tags.mlflow.runName", col, *params]].to_string(index=False))


if __name__ == "__main__":
    main()
